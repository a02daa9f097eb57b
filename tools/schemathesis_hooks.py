"""Schemathesis hooks of tools/schemathesis.sh: the run's own data, which no generator can guess.

Schemathesis warns about an operation when, in one phase (examples, coverage, fuzzing), every
valid case it generated was refused. Most refusals left once the document states the server's
rules come from the player's state, not from the data's shape: an id of an object the player does
not have, a code never sent, a promo code already used, a bonus in another state. So, before a
valid ("positive") case is sent, this module may put real values in it, made for that very call:

- the first valid case of each operation and phase, and every second one after it, gets them (a
  "fixture turn"); the other valid cases keep what the generator drew, so the run still sends
  random ids, codes and names to every operation;
- each fixture is made just before the call through the API as the run's player, or through the
  operator API (the script starts the server with an admin token), and each is used once: a fresh
  bonus for `bonuses.activate`, a fresh promo code for `campaigns.activateOffer`, a code read from
  the dev mailbox for `account.confirmContact`, and so on (see FIXTURES);
- negative cases are never touched.

Every case also gets its own client address (`X-Forwarded-For`, trusted as behind a load balancer:
the script sets CROUPIER_TRUST_PROXY), so that the per-address limits (feedback, password checks,
verification, promo codes) see many clients, as in production, rather than one fuzzer; the
per-account limits stay as they are. The limits themselves are tested in tests/api/guessing.rs.

Three operations are left refused (see the script); the sportsbook's `bets.place` and
`bets.cashOut` get an open price of the sandbox feed and a funded player of the hooks' own. A guest's `Support.sendFeedback`: all guests
share one limit of 5 an hour, so once it trips only the cases whose e-mail the server's rule
refuses (the document states a wider pattern) get an answer other than 429. And two cannot accept
a valid generated case:
`account.unlinkTelegram` (the run's player has no Telegram link: linking needs a bot token, which
the run does not have) and a guest's `account.unsubscribe` (its `token` is signed with the
server's secret and only ever sent in a marketing e-mail).

Environment (set by tools/schemathesis.sh): CROUPIER_ST_BASE, CROUPIER_ST_VERSION,
CROUPIER_ST_ADMIN_TOKEN, CROUPIER_ST_RUN (guest or signed-in), CROUPIER_ST_COOKIE,
CROUPIER_ST_EMAIL, CROUPIER_ST_PASSWORD, CROUPIER_ST_USER_ID, CROUPIER_ST_DEPOSIT_ID,
CROUPIER_ST_BONUS_CAMPAIGN, CROUPIER_ST_PROMO_CAMPAIGN, CROUPIER_ST_FREEBET_CAMPAIGN.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

import schemathesis
from schemathesis.generation import GenerationMode

ENV = os.environ
BASE = ENV["CROUPIER_ST_BASE"]
VERSION = ENV["CROUPIER_ST_VERSION"]
RUN = ENV["CROUPIER_ST_RUN"]
SIGNED_IN = RUN == "signed-in"

_addresses = itertools.count(1)
_serial = itertools.count(1)
_turns: dict[tuple[str, str], int] = {}


class FixtureError(Exception):
    pass


def _send(request: urllib.request.Request) -> dict:
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)
    except urllib.error.HTTPError as e:
        raise FixtureError(f"{request.full_url}: {e.code} {e.read()[:300]!r}") from None


def _address() -> str:
    n = next(_addresses)
    return f"10.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"


def api(name: str, /, cookie: str | None = None, **fields: object) -> dict:
    """One call of the product API (as the run's player by default), answering `data`."""
    headers = {"Origin": BASE, "X-Forwarded-For": _address()}
    cookie = ENV.get("CROUPIER_ST_COOKIE") if cookie is None else cookie
    if cookie:
        headers["Cookie"] = cookie
    body = urllib.parse.urlencode({k: str(v) for k, v in fields.items()}).encode()
    request = urllib.request.Request(f"{BASE}/api/{name}?v={VERSION}", data=body, headers=headers)
    return _send(request)["data"]


def admin(path: str, body: dict) -> dict:
    """One call of the operator API, answering `data`."""
    headers = {"Authorization": f"Bearer {ENV['CROUPIER_ST_ADMIN_TOKEN']}", "Content-Type": "application/json"}
    request = urllib.request.Request(f"{BASE}{path}", data=json.dumps(body).encode(), headers=headers, method="POST")
    return _send(request)["data"]


def last_code(to: str) -> str:
    """The newest one-time code the dev mailbox holds for `to`."""
    query = urllib.parse.urlencode({"to": to})
    with urllib.request.urlopen(f"{BASE}/dev/mailbox?{query}", timeout=10) as response:
        for message in json.load(response):
            if message.get("code"):
                return message["code"]
    raise FixtureError(f"no code in the dev mailbox for {to}")


def unique(prefix: str) -> str:
    return f"{prefix}{os.getpid()}x{next(_serial)}"


def fresh_email() -> str:
    return f"{unique('st')}@example.com"


def fresh_fakename() -> str:
    # Letters only (the fakename rule takes letters; digits would do as well).
    n = os.getpid() * 1000 + next(_serial)
    return "Fz" + "".join(chr(ord("a") + int(d)) for d in str(n))


def user_id() -> int:
    return int(ENV["CROUPIER_ST_USER_ID"])


def grant_bonus() -> int:
    """A bonus of a deposit campaign, granted by the operator: `active` (waiting for a deposit)."""
    body = {"user_id": user_id(), "campaign_id": int(ENV["CROUPIER_ST_BONUS_CAMPAIGN"]), "reason": "schemathesis"}
    return admin("/admin/bonuses", body)["id"]


def grant_free_bet() -> int:
    """A free bet of a manual freebet campaign, granted by the operator: `offered`."""
    body = {"user_id": user_id(), "campaign_id": int(ENV["CROUPIER_ST_FREEBET_CAMPAIGN"]), "reason": "schemathesis"}
    return admin("/admin/bonuses", body)["id"]


def promo_code() -> str:
    code = unique("ST").upper()
    admin("/admin/promo-codes", {"code": code, "campaign_id": int(ENV["CROUPIER_ST_PROMO_CAMPAIGN"])})
    return code


def offer() -> int:
    """A new campaign a player may take (deposit trigger)."""
    return admin("/admin/campaigns", campaign(unique("st-offer-"), "deposit"))["id"]


def cashback() -> int:
    body = {"user_id": user_id(), "amount": 100, "currency": "USD", "description_en": "Schemathesis",
            "description_fr": "Schemathesis", "end_date": 4102444800}
    return admin("/admin/cashbacks", body)["id"]


def campaign(sysname: str, trigger: str, min_deposit: int = 1000, reward: str = "deposit_match") -> dict:
    return {"sysname": sysname, "status": "active", "trigger": trigger, "reward": reward,
            "match_percent": 100, "freespin_count": 0, "wager_multiplier": 1, "wager_includes_deposit": False,
            "games": [], "title_en": "Schemathesis", "title_fr": "Schemathesis", "text_en": "A fixture.",
            "text_fr": "Une donnée de test.", "terms_en": "", "terms_fr": "", "promotions": [],
            "amounts": [{"currency": "USD", "min_deposit": min_deposit, "max_bonus": 100, "max_bet": 500,
                         "freespin_bet": 0}]}


def new_contact() -> str:
    """A fresh e-mail added to the player's contacts (its confirmation code is in the mailbox)."""
    email = fresh_email()
    api("account.addcontact", contact=email)
    return email


def contact_code(email: str) -> str:
    try:
        return last_code(email)
    except FixtureError:
        api("account.sendconfirmationtocontact", contact=email)
        return last_code(email)


def withdrawal() -> int:
    confirmed_email()
    return api("cashier.makewithdrawal", method="sandbox_card", amount="10", burn_bonuses="1")["id"]


def new_account() -> tuple[str, str]:
    """A fresh player: its e-mail and its session cookie."""
    email = fresh_email()
    fields = {"email": email, "password": "secret123", "currency": "USD", "terms": "1"}
    headers = {"Origin": BASE, "X-Forwarded-For": _address()}
    request = urllib.request.Request(f"{BASE}/api/auth.register?v={VERSION}",
                                     data=urllib.parse.urlencode(fields).encode(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            cookie = response.headers.get("Set-Cookie", "").split(";", 1)[0]
    except urllib.error.HTTPError as e:
        raise FixtureError(f"registering {email}: {e.code} {e.read()[:300]!r}") from None
    return email, cookie


_fresh_players: dict[tuple[str, str], str] = {}


def fresh_player(case) -> str:
    """The session of a player made for this operation and phase (one per phase, not per call)."""
    key = (case.operation.label, str(case.meta.phase.name))
    if key not in _fresh_players:
        _fresh_players[key] = new_account()[1]
    return _fresh_players[key]


def current_email() -> str:
    """The player's e-mail now: `account.addcontact` replaces it, and the run calls that."""
    for contact in api("account.getprofileinfo", fields="contacts").get("contacts") or []:
        if contact.get("type") == "email":
            return contact["contact"]
    raise FixtureError("the run's player has no e-mail")


def confirmed_email() -> str:
    """The player's e-mail, confirmed first if it is not (withdrawals need a confirmed contact)."""
    for contact in api("account.getprofileinfo", fields="contacts").get("contacts") or []:
        if contact.get("type") == "email":
            if not contact.get("is_confirmed"):
                email = contact["contact"]
                api("account.confirmContact", contact=email, code=contact_code(email))
            return contact["contact"]
    raise FixtureError("the run's player has no e-mail")


# A fixture's key for the session the case is sent with, in the signed-in run: a cookie, or FRESH,
# a player made for the operation (one per phase). For the states the fuzzer uses up on the run's
# player: its per-account limits, its currency once money has moved, its two-factor codes.
COOKIE = "__cookie__"
FRESH = object()


# For each operation: what a fixture turn puts in the case (fields to set; None removes a field).
def _fix_two_factor_confirm() -> dict:
    # On a player of its own, which asks to switch two-factor on: the run's player's codes are
    # replaced and used up by the fuzzer's own calls of `account.changeTwoFactorAuth`.
    email, cookie = new_account()
    api("account.changeTwoFactorAuth", cookie=cookie, enable="1")
    return {"code": last_code(email), COOKIE: cookie}


def _fix_two_factor_change() -> dict:
    # On a player of its own: asking to switch two-factor on sends a code, and another request
    # within the resend interval is refused (RESEND_TIME), which the fuzzer's own calls on the
    # run's player keep tripping.
    return {"enable": "1", COOKIE: new_account()[1]}


def _fix_confirm_contact() -> dict:
    email = new_contact()
    return {"contact": email, "code": contact_code(email), "phone_country_code": None}


def _fix_confirm_link() -> dict:
    email = new_contact() if SIGNED_IN else new_account()[0]
    return {"contact": f"email:{email}", "code": contact_code(email) if SIGNED_IN else last_code(email)}


def _fix_bonus_offered() -> dict:
    bonus = grant_bonus()
    api("bonuses.deactivate", bonus_id=bonus)
    return {"bonus_id": bonus}


def _fix_like_removal() -> dict:
    api("games.addLike", sysname="dice")
    return {"sysname": "dice"}


def _fix_buy() -> dict:
    admin("/admin/loyalty/points", {"user_id": user_id(), "points": 100, "reason": "schemathesis"})
    return {"product_id": 1, "request_id": None}


def _fix_verification() -> dict:
    admin(f"/admin/players/{user_id()}/verification", {"status": "none", "reason": "schemathesis"})
    return {}


def _fix_password() -> dict:
    # On a player of its own: the run's player's password checks are used up by the wrong old
    # passwords the fuzzer sends (a per-account limit).
    return {"old_password": "secret123", "new_password": "secret456", "new_password_repeat": "secret456",
            COOKIE: FRESH}


# The sportsbook's fixtures: a price of the sandbox feed that is open now, and a player of the
# hooks' own with money to stake (the fuzzer sets limits and exclusions on the run's player, never
# on this one).
_bettor: dict[str, str] = {}


def open_price() -> tuple[int, int, str]:
    """An upcoming event, one of its active selections and that selection's decimal price."""
    for event in api("sportsbook.getEvents", status="upcoming", count=50).get("items") or []:
        for market in event.get("markets") or []:
            if market.get("state") != "active":
                continue
            for selection in market.get("selections") or []:
                if selection.get("odds"):
                    return event["id"], selection["id"], selection["odds"]
    raise FixtureError("the feed has no active selection")


def bettor() -> str:
    """The session of a player with 1,000.00 to bet with (made once per run)."""
    if "cookie" not in _bettor:
        _, cookie = new_account()
        uid = api("account.getInfo", cookie=cookie)["uid"]
        funds = admin("/admin/cashbacks", {"user_id": uid, "amount": 100_000, "currency": "USD",
                                           "description_en": "Schemathesis", "description_fr": "Schemathesis",
                                           "end_date": 4102444800})["id"]
        api("cashbacks.payout", cookie=cookie, cashback_id=funds)
        _bettor["cookie"] = cookie
    return _bettor["cookie"]


def _fix_bet() -> dict:
    _, selection, odds = open_price()
    return {"kind": "single", "system": None, "selections": str(selection), "odds": odds, "stake": "1",
            "accept_odds": "any", "funds": "main", "request_id": unique("st-bet-"), "betting_bonus_id": None,
            COOKIE: bettor()}


def _fix_cash_out() -> dict:
    _, selection, odds = open_price()
    cookie = bettor()
    bet = api("bets.place", cookie=cookie, kind="single", selections=selection, odds=odds, stake="1",
              accept_odds="any", funds="main", request_id=unique("st-bet-"))
    return {"bet_id": bet["id"], "amount": None, COOKIE: cookie}


def _fix_event() -> dict:
    return {"event_id": open_price()[0]}


FIXTURES = {
    "POST /api/Support.sendFeedback": lambda: {"email": "support-st@example.com", COOKIE: FRESH},
    "POST /api/account.addcontact": lambda: {"contact": fresh_email(), "phone_country_code": None},
    "POST /api/account.changeSubscription": lambda: {"contact": current_email(), "phone_country_code": None},
    "POST /api/account.sendconfirmationtocontact": lambda: {"contact": new_contact(), "phone_country_code": None},
    "POST /api/account.confirmContact": _fix_confirm_contact,
    "POST /api/account.confirmContactLink": _fix_confirm_link,
    "POST /api/account.changeTwoFactorAuth": _fix_two_factor_change,
    "POST /api/account.confirmTwoFactorAuth": _fix_two_factor_confirm,
    "POST /api/account.changefakename": lambda: {"fakename": fresh_fakename()},
    "POST /api/account.changepassword": _fix_password,
    "POST /api/account.saveProfileInfo": lambda: {"document_number": None, "document_type": None},
    "POST /api/auth.login": lambda: {"login": ENV["CROUPIER_ST_EMAIL"], "password": ENV["CROUPIER_ST_PASSWORD"],
                                     "code": None},
    "POST /api/auth.register": lambda: {"email": fresh_email(), "fakename": fresh_fakename(), "phone": None,
                                        "phone_country_code": None, "promo_code": None},
    "POST /api/auth.restore": lambda: {"login": new_account()[0], "code": None, "password": None,
                                       "password_repeat": None},
    "POST /api/BettingBonuses.activate": lambda: {"bonus_id": grant_free_bet()},
    "POST /api/BettingBonuses.remove": lambda: {"bonus_id": grant_free_bet()},
    "POST /api/bonuses.activate": _fix_bonus_offered,
    "POST /api/bonuses.deactivate": lambda: {"bonus_id": grant_bonus()},
    "POST /api/bonuses.remove": lambda: {"bonus_id": grant_bonus()},
    "POST /api/campaigns.activateOffer": lambda: {"promo_code": promo_code(), COOKIE: FRESH},
    "POST /api/campaigns.checkPromocode": lambda: {"promo_code": promo_code(), COOKIE: FRESH},
    "POST /api/campaigns.takepromotions": lambda: {"offer_id": offer()},
    "POST /api/cashbacks.payout": lambda: {"cashback_id": cashback()},
    "POST /api/cashbacks.remove": lambda: {"cashback_id": cashback()},
    "POST /api/cashier.cancelwithdrawal": lambda: {"id": withdrawal()},
    "POST /api/cashier.getdepositinfo": lambda: {"id": ENV["CROUPIER_ST_DEPOSIT_ID"]},
    "GET /api/cashier.getdepositinfo": lambda: {"id": ENV["CROUPIER_ST_DEPOSIT_ID"]},
    "POST /api/cashier.makedeposit": lambda: {"method": "sandbox_card", "amount": "100", "requisites": None,
                                              "campaign_offer_id": "none"},
    "POST /api/cashier.makewithdrawal": lambda: {"method": "sandbox_card", "amount": "10", "requisites": None,
                                                 "burn_bonuses": "1", "__confirmed": confirmed_email()},
    "POST /api/games.addLike": lambda: {"sysname": "dice"},
    "POST /api/games.removeLike": _fix_like_removal,
    "POST /api/loyalty.buyproduct": _fix_buy,
    "POST /api/loyalty.getProgram": lambda: {"sysname": "first-steps"},
    "GET /api/loyalty.getProgram": lambda: {"sysname": "first-steps"},
    "POST /api/bets.place": _fix_bet,
    "POST /api/bets.cashOut": _fix_cash_out,
    "GET /api/sportsbook.getEvent": _fix_event,
    "POST /api/sportsbook.getEvent": _fix_event,
    "POST /api/support.storeChatEvent": lambda: {"provider": "sandbox", "event": "opened", "data": "{}"},
    "POST /api/verification.createApplicant": _fix_verification,
    "POST /api/verification.getAccessToken": _fix_verification,
    # Only while no money has moved: on a player of its own (the run's player has a balance).
    "POST /api/account.setCurrency": lambda: {"currency": "USD", "terms": None, COOKIE: FRESH},
}
if SIGNED_IN:
    # A signed-in player may name the contact instead of the link's token.
    FIXTURES["POST /api/account.unsubscribe"] = lambda: {"contact": current_email(), "token": None,
                                                         "phone_country_code": None}


def _is_turn(case) -> bool:
    meta = case.meta
    if meta is None or meta.generation.mode != GenerationMode.POSITIVE:
        return False
    key = (case.operation.label, str(meta.phase.name))
    n = _turns.get(key, 0)
    _turns[key] = n + 1
    return n % 2 == 0


@schemathesis.hook
def before_call(context, case, **kwargs):
    headers = {**(case.headers or {}), "X-Forwarded-For": _address()}
    if SIGNED_IN:
        # The run's session is sent from here rather than from the command line, whose headers
        # would win over a fixture's own session.
        headers["Cookie"] = ENV["CROUPIER_ST_COOKIE"]
    case.headers = headers
    fixture = FIXTURES.get(case.operation.label)
    if fixture is None or not _is_turn(case):
        return
    try:
        values = fixture()
    except FixtureError as e:
        # The case goes as generated; a refusal then shows in the count of the script.
        print(f"schemathesis_hooks: no fixture for {case.operation.label}: {e}", file=sys.stderr)
        return
    values = {k: v for k, v in values.items() if not k.startswith("__") or k == COOKIE}
    cookie = values.pop(COOKIE, None)
    if cookie is not None and SIGNED_IN:
        cookie = fresh_player(case) if cookie is FRESH else cookie
        case.headers = {**case.headers, "Cookie": cookie}
    if not values:
        return
    container_name = "query" if case.operation.method.upper() == "GET" else "body"
    container = getattr(case, container_name)
    container = dict(container) if isinstance(container, dict) else {}
    for name, value in values.items():
        if value is None:
            container.pop(name, None)
        else:
            container[name] = value
    setattr(case, container_name, container)


def setup() -> None:
    """The run's player and the operator's campaigns; prints them as shell `export` lines."""
    email = ENV["CROUPIER_ST_EMAIL"]
    # The contact confirmed (withdrawals need it), with the code its registration sent.
    api("account.confirmContact", contact=email, code=last_code(email))
    bonus_campaign = admin("/admin/campaigns", campaign(unique("st-bonus-"), "manual"))["id"]
    promo_campaign = admin("/admin/campaigns", campaign(unique("st-promo-"), "promo_code"))["id"]
    freebet_campaign = admin("/admin/campaigns", campaign(unique("st-freebet-"), "manual", reward="freebet"))["id"]
    # Money to withdraw: a cashback of 10,000.00 paid out to the main balance.
    funds = admin("/admin/cashbacks", {"user_id": user_id(), "amount": 1_000_000, "currency": "USD",
                                       "description_en": "Schemathesis", "description_fr": "Schemathesis",
                                       "end_date": 4102444800})["id"]
    api("cashbacks.payout", cashback_id=funds)
    deposit = api("cashier.makedeposit", method="sandbox_card", amount="100")["id"]
    print(f"export CROUPIER_ST_BONUS_CAMPAIGN={bonus_campaign} CROUPIER_ST_PROMO_CAMPAIGN={promo_campaign} "
          f"CROUPIER_ST_FREEBET_CAMPAIGN={freebet_campaign} CROUPIER_ST_DEPOSIT_ID={deposit}")


if __name__ == "__main__":
    setup()
