//! No player reaches another's data (issue 24, item 5): every `/api` method and HTTP route that
//! takes an id or a key naming something a player owns is called by player B with player A's id
//! and with an id nobody has. Both answers must be the same refusal (so ids cannot be probed), and
//! A's state — balances, the objects as A sees them, A's lists — and B's are the same afterwards.
//!
//! Each row of [`rows`] is one method or route: the object of A it names (made by [`World::make`]),
//! the parameters with A's id, the same with a nonexistent one, and the answer expected. A new
//! method taking an id adds a row, or an entry in [`PUBLIC_IDS`] saying why its ids are nobody's
//! secret: [`every_id_taking_method_has_a_row_or_a_reason`] walks `/api/openapi.json` so none is
//! forgotten.

use crate::cashier::{deposit, verified_player};
use crate::db_test;
use crate::games::{funded, launch};
use crate::helpers::{TestApp, read_json};
use croupier_server::features::backoffice::trail::Actor;
use croupier_server::features::bonuses::admin::{self as bonus_admin, GrantInput};
use croupier_server::features::cashbacks::CreateRequest;
use croupier_server::features::freespins;
use croupier_server::features::loyalty::admin::{PointsInput, adjust};
use croupier_shared::Currency;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::collections::BTreeSet;

const ALICE: &str = "alice@example.com";
const BOB: &str = "bob@example.com";
/// Alice's second contact, left unconfirmed so its code is still waiting (`account.addcontact`).
const ALICE_PHONE: (&str, &str) = ("7911123456", "44");
const ALICE_PHONE_FULL: &str = "447911123456";
/// The shop product Alice bought (`loyalty.buyproduct`) and the request id she used.
const PRODUCT: &str = "bonus-5";
const ALICE_REQUEST: &str = "alice-request-1";
/// The free-spin pack's game; nobody has a pack on [`NO_PACK_GAME`].
const PACK_GAME: &str = "lucky-sevens";
const NO_PACK_GAME: &str = "gem-rush";

/// Alice's objects, one of each kind a row names, and the two players' browsers.
#[derive(Default)]
struct World {
    alice: reqwest::Client,
    bob: reqwest::Client,
    deposit: String,
    withdrawal: String,
    bonus: i64,
    betting_bonus: i64,
    cashback: i64,
    storage_key: String,
    phone_code: String,
    product: i64,
    export_url: String,
    kyc_page: String,
    game_token: String,
}

impl World {
    async fn make(app: &TestApp) -> World {
        let alice = verified_player(app, ALICE).await;
        let alice_id = uid(app, &alice).await;
        let deposit = deposit(app, &alice, "sandbox_card", "100").await;
        let (status, body) =
            app.post_as(&alice, "cashier.makewithdrawal", &[("method", "sandbox_card"), ("amount", "20")]).await;
        assert_eq!((status, body["data"]["status"].as_str()), (StatusCode::OK, Some("pending")), "{body}");
        let withdrawal = body["data"]["id"].as_str().unwrap().to_owned();

        let gift = crate::bonuses::campaign("xp-gift", "manual", "fixed", 1_000, 10)
            .save(&app.state, &Actor::cli(), None)
            .await
            .unwrap();
        let grant = GrantInput { user_id: alice_id, campaign_id: gift, reason: "isolation test".into() };
        let bonus = bonus_admin::grant(&app.state, &Actor::cli(), &grant).await.unwrap();
        let freebet = crate::bonuses::campaign("xp-freebet", "manual", "freebet", 500, 0)
            .save(&app.state, &Actor::cli(), None)
            .await
            .unwrap();
        let grant = GrantInput { user_id: alice_id, campaign_id: freebet, reason: "isolation test".into() };
        let betting_bonus = bonus_admin::grant(&app.state, &Actor::cli(), &grant).await.unwrap();
        let cashback = CreateRequest {
            reason: None,
            request_id: None,
            user_id: alice_id,
            amount: 1_250,
            currency: "USD".into(),
            description_en: "10% back".into(),
            description_fr: "10% remboursé".into(),
            end_date: croupier_server::db::now_ms() / 1000 + 7 * 86_400,
        }
        .create(app.state.db())
        .await
        .unwrap();

        let storage_key = "alice-notes".to_owned();
        let (status, body) = app.post_as(&alice, "storage.set", &[("key", &storage_key), ("value", "alice's")]).await;
        assert_eq!(status, StatusCode::OK, "{body}");

        let (number, country) = ALICE_PHONE;
        let (status, body) =
            app.post_as(&alice, "account.addcontact", &[("contact", number), ("phone_country_code", country)]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, body) =
            app.post_as(&alice, "account.sendconfirmationtocontact", &[("contact", ALICE_PHONE_FULL)]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let phone_code = app.last_code(ALICE_PHONE_FULL).await;

        let written = adjust(
            &app.state,
            &Actor::cli(),
            &PointsInput { user_id: alice_id, points: 1_000, reason: "isolation test".into(), key: None },
        )
        .await
        .unwrap();
        assert!(written);
        let product = product_id(app, PRODUCT).await;
        let (status, body) = app
            .post_as(
                &alice,
                "loyalty.buyproduct",
                &[("product_id", &product.to_string()), ("request_id", ALICE_REQUEST)],
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");

        freespins::grant(app.state.db(), alice_id, PACK_GAME, Currency::parse("USD").unwrap(), 200, 3, 3_600_000)
            .await
            .unwrap();
        let export_url = ready_export(app, &alice).await;
        let (status, body) = app.post_as(&alice, "verification.getAccessToken", &[]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let kyc_page = body["data"]["url"].as_str().unwrap().replace("http://localhost:8080", &app.url(""));

        let (status, launched) = launch(app, &alice, "dice", "play").await;
        assert_eq!(status, StatusCode::OK, "{launched}");
        let game_token = launched["token"].as_str().unwrap().to_owned();

        // Bob has money of his own, so a game launches for him in real play.
        let bob = funded(app, BOB, 1_000).await;
        World {
            alice,
            bob,
            deposit,
            withdrawal,
            bonus,
            betting_bonus,
            cashback,
            storage_key,
            phone_code,
            product,
            export_url,
            kyc_page,
            game_token,
        }
    }
}

async fn uid(app: &TestApp, client: &reqwest::Client) -> i64 {
    let (_, me) = app.get_as(client, "account.getInfo", &[]).await;
    me["data"]["uid"].as_i64().unwrap_or_else(|| panic!("{me}"))
}

async fn product_id(app: &TestApp, sysname: &str) -> i64 {
    let (_, body) = app.api_get("loyalty.getproducts", &[]).await;
    let items = body["data"]["items"].as_array().unwrap_or_else(|| panic!("{body}"));
    items.iter().find(|p| p["sysname"] == sysname).unwrap_or_else(|| panic!("no {sysname}: {body}"))["id"]
        .as_i64()
        .unwrap()
}

/// Asks for a history export and waits for the job to write it; answers its download link.
async fn ready_export(app: &TestApp, client: &reqwest::Client) -> String {
    let (status, body) = app.post_as(client, "games.createhistoryexportrequest", &[]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    for _ in 0..200 {
        let (_, got) = app.get_as(client, "games.gethistoryexportrequest", &[]).await;
        if got["data"]["status"] == "ready" {
            return got["data"]["url"].as_str().unwrap().replace("http://localhost:8080", &app.url(""));
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the history export was never written");
}

/// How a row's call is made.
#[derive(Clone, Copy)]
enum Call {
    /// `GET /api/{method}` with the parameters as the query.
    ApiGet(&'static str),
    /// `POST /api/{method}` with the parameters as the form.
    ApiPost(&'static str),
    /// `GET` of the route in the `path` parameter (the caller's session cookie sent).
    Get,
    /// Launches the game in the `game` parameter (`/platform/game/{sysname}/play`) and plays one
    /// free spin with the session it got (`/games/house/{sysname}/round`).
    FreeSpin,
}

/// The answer a row expects, the same for A's id and for the nonexistent one.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// The error envelope: HTTP status, error type, and the field with its code.
    Refused(u16, &'static str, &'static str, &'static str),
    /// The key names a slot in the caller's own space: answered as for a key nobody used, `data`
    /// being this.
    Own(&'static str),
    /// A route's HTTP status (its body compared between the two calls).
    Status(u16),
}

type Params = Vec<(&'static str, String)>;

struct Row {
    /// The `/api` method or the route, as the router spells it.
    name: &'static str,
    /// Which of Alice's objects the call names, and how she got it ([`World::make`]).
    object: &'static str,
    call: Call,
    /// The parameter that names Alice's object (what the coverage test reads for methods).
    key: &'static str,
    /// The parameters naming Alice's object.
    alices: fn(&World) -> Params,
    /// The same call naming an object nobody has.
    nobodys: fn(&World) -> Params,
    expect: Expect,
}

fn p(pairs: &[(&'static str, &str)]) -> Params {
    pairs.iter().map(|(k, v)| (*k, (*v).to_owned())).collect()
}

const UNKNOWN_PAYMENT: &str = "00000000-0000-4000-8000-000000000000";

/// One row per method or route that takes an id or key of something a player owns.
fn rows() -> Vec<Row> {
    use Expect::{Own, Refused, Status};
    let not_found = |field| Refused(422, "InvalidParameterException", field, "NOT_FOUND");
    vec![
        Row {
            name: "cashier.getdepositinfo",
            object: "a deposit paid through the sandbox",
            call: Call::ApiGet("cashier.getdepositinfo"),
            key: "id",
            alices: |w| p(&[("id", &w.deposit)]),
            nobodys: |_| p(&[("id", UNKNOWN_PAYMENT)]),
            expect: not_found("id"),
        },
        Row {
            name: "cashier.getdepositinfo",
            object: "a withdrawal awaiting approval",
            call: Call::ApiGet("cashier.getdepositinfo"),
            key: "id",
            alices: |w| p(&[("id", &w.withdrawal)]),
            nobodys: |_| p(&[("id", UNKNOWN_PAYMENT)]),
            expect: not_found("id"),
        },
        Row {
            name: "cashier.cancelwithdrawal",
            object: "a withdrawal awaiting approval",
            call: Call::ApiPost("cashier.cancelwithdrawal"),
            key: "id",
            alices: |w| p(&[("id", &w.withdrawal)]),
            nobodys: |_| p(&[("id", UNKNOWN_PAYMENT)]),
            expect: not_found("id"),
        },
        Row {
            name: "bonuses.activate",
            object: "a bonus an operator granted",
            call: Call::ApiPost("bonuses.activate"),
            key: "bonus_id",
            alices: |w| p(&[("bonus_id", &w.bonus.to_string())]),
            nobodys: |_| p(&[("bonus_id", "999999999")]),
            expect: not_found("bonus_id"),
        },
        Row {
            name: "bonuses.deactivate",
            object: "a bonus an operator granted",
            call: Call::ApiPost("bonuses.deactivate"),
            key: "bonus_id",
            alices: |w| p(&[("bonus_id", &w.bonus.to_string())]),
            nobodys: |_| p(&[("bonus_id", "999999999")]),
            expect: not_found("bonus_id"),
        },
        Row {
            name: "bonuses.remove",
            object: "a bonus an operator granted",
            call: Call::ApiPost("bonuses.remove"),
            key: "bonus_id",
            alices: |w| p(&[("bonus_id", &w.bonus.to_string())]),
            nobodys: |_| p(&[("bonus_id", "999999999")]),
            expect: not_found("bonus_id"),
        },
        Row {
            name: "BettingBonuses.activate",
            object: "a free bet an operator granted",
            call: Call::ApiPost("BettingBonuses.activate"),
            key: "bonus_id",
            alices: |w| p(&[("bonus_id", &w.betting_bonus.to_string())]),
            nobodys: |_| p(&[("bonus_id", "999999999")]),
            expect: not_found("bonus_id"),
        },
        Row {
            name: "BettingBonuses.remove",
            object: "a free bet an operator granted",
            call: Call::ApiPost("BettingBonuses.remove"),
            key: "bonus_id",
            alices: |w| p(&[("bonus_id", &w.betting_bonus.to_string())]),
            nobodys: |_| p(&[("bonus_id", "999999999")]),
            expect: not_found("bonus_id"),
        },
        Row {
            name: "cashbacks.payout",
            object: "an active cashback",
            call: Call::ApiPost("cashbacks.payout"),
            key: "cashback_id",
            alices: |w| p(&[("cashback_id", &w.cashback.to_string())]),
            nobodys: |_| p(&[("cashback_id", "999999999")]),
            expect: not_found("cashback_id"),
        },
        Row {
            name: "cashbacks.remove",
            object: "an active cashback",
            call: Call::ApiPost("cashbacks.remove"),
            key: "cashback_id",
            alices: |w| p(&[("cashback_id", &w.cashback.to_string())]),
            nobodys: |_| p(&[("cashback_id", "999999999")]),
            expect: not_found("cashback_id"),
        },
        Row {
            name: "storage.get",
            object: "a value stored under a key",
            call: Call::ApiGet("storage.get"),
            key: "key",
            alices: |w| p(&[("key", &w.storage_key)]),
            nobodys: |_| p(&[("key", "nobody-used-this")]),
            expect: Own("null"),
        },
        Row {
            name: "storage.set",
            object: "a value stored under a key",
            call: Call::ApiPost("storage.set"),
            key: "key",
            alices: |w| p(&[("key", &w.storage_key), ("value", "bob's")]),
            nobodys: |_| p(&[("key", "nobody-used-this"), ("value", "bob's")]),
            expect: Own("1"),
        },
        Row {
            name: "account.confirmContact",
            object: "an unconfirmed phone and the code it was sent",
            call: Call::ApiPost("account.confirmContact"),
            key: "contact",
            alices: |w| p(&[("contact", ALICE_PHONE_FULL), ("code", &w.phone_code)]),
            nobodys: |w| p(&[("contact", "447911000000"), ("code", &w.phone_code)]),
            expect: not_found("contact"),
        },
        Row {
            name: "account.sendconfirmationtocontact",
            object: "an unconfirmed phone",
            call: Call::ApiPost("account.sendconfirmationtocontact"),
            key: "contact",
            alices: |_| p(&[("contact", ALICE_PHONE_FULL)]),
            nobodys: |_| p(&[("contact", "447911000000")]),
            expect: not_found("contact"),
        },
        Row {
            name: "account.changeSubscription",
            object: "the e-mail she registered with",
            call: Call::ApiPost("account.changeSubscription"),
            key: "contact",
            alices: |_| p(&[("contact", ALICE), ("subscription", "0")]),
            nobodys: |_| p(&[("contact", "nobody@example.com"), ("subscription", "0")]),
            expect: not_found("contact"),
        },
        Row {
            name: "account.unsubscribe",
            object: "the e-mail she registered with",
            call: Call::ApiPost("account.unsubscribe"),
            key: "contact",
            alices: |_| p(&[("contact", ALICE)]),
            nobodys: |_| p(&[("contact", "nobody@example.com")]),
            expect: not_found("contact"),
        },
        Row {
            // The link's code is its secret: with it the link confirms from any device, so B is
            // given a wrong one, which must tell nothing about whether the contact exists.
            name: "account.confirmContactLink",
            object: "an unconfirmed phone",
            call: Call::ApiPost("account.confirmContactLink"),
            key: "contact",
            alices: |w| p(&[("contact", &format!("phone:{ALICE_PHONE_FULL}")), ("code", &wrong_code(&w.phone_code))]),
            nobodys: |w| p(&[("contact", "phone:447911000000"), ("code", &wrong_code(&w.phone_code))]),
            expect: Refused(422, "InvalidParameterException", "code", "CODE_EXPIRED"),
        },
        Row {
            name: "auth.login",
            object: "her account (its login)",
            call: Call::ApiPost("auth.login"),
            key: "login",
            alices: |_| p(&[("login", ALICE), ("password", "not-her-password")]),
            nobodys: |_| p(&[("login", "nobody@example.com"), ("password", "not-her-password")]),
            expect: Refused(422, "InvalidParameterException", "password", "WRONG_CREDENTIALS"),
        },
        Row {
            // Alice has no password reset under way: "expired" for her against "invalid" for
            // nobody would tell that her account exists.
            name: "auth.restore",
            object: "her account (its login)",
            call: Call::ApiPost("auth.restore"),
            key: "login",
            alices: |w| {
                p(&[
                    ("login", ALICE),
                    ("code", &wrong_code(&w.phone_code)),
                    ("password", "newsecret9"),
                    ("password_repeat", "newsecret9"),
                ])
            },
            nobodys: |w| {
                p(&[
                    ("login", "nobody@example.com"),
                    ("code", &wrong_code(&w.phone_code)),
                    ("password", "newsecret9"),
                    ("password_repeat", "newsecret9"),
                ])
            },
            expect: Refused(422, "InvalidParameterException", "code", "CODE_INVALID"),
        },
        Row {
            name: "loyalty.buyproduct",
            object: "a shop purchase made with a request id",
            call: Call::ApiPost("loyalty.buyproduct"),
            key: "request_id",
            alices: |w| p(&[("product_id", &w.product.to_string()), ("request_id", ALICE_REQUEST)]),
            nobodys: |w| p(&[("product_id", &w.product.to_string()), ("request_id", "nobody-request")]),
            expect: Refused(422, "InvalidParameterException", "product_id", "INSUFFICIENT_POINTS"),
        },
        Row {
            name: "/games/history/export/{id}/{file}",
            object: "a written history export",
            call: Call::Get,
            key: "path",
            alices: |w| p(&[("path", &w.export_url)]),
            nobodys: |w| p(&[("path", &unknown_export(&w.export_url))]),
            expect: Status(404),
        },
        Row {
            name: "/platform/game/{sysname}/{mode}",
            object: "a free-spin pack on a game",
            call: Call::FreeSpin,
            key: "game",
            alices: |_| p(&[("game", PACK_GAME)]),
            nobodys: |_| p(&[("game", NO_PACK_GAME)]),
            expect: Status(409),
        },
    ]
}

/// A 6-digit code that is not `code`.
fn wrong_code(code: &str) -> String {
    if code == "000000" { "111111".into() } else { "000000".into() }
}

/// The export link `…/export/{id}/{key}.csv` with an id no export has.
fn unknown_export(url: &str) -> String {
    let (base, file) = url.rsplit_once('/').unwrap();
    let (base, _) = base.rsplit_once('/').unwrap();
    format!("{base}/999999999/{file}")
}

/// Methods whose id-like parameters name nothing private, or whose refusal of another player's id
/// is proven by the feature's own test (named in the reason), with the reason. `(method, parameter)`.
const PUBLIC_IDS: &[(&str, &str, &str)] = &[
    ("Jackpots.get", "id", "jackpot pools are public"),
    ("Jackpots.getWinners", "id", "jackpot pools and their winners feed are public"),
    ("tournaments.get", "id", "tournaments are public"),
    ("tournaments.participate", "tournament_id", "tournaments are public; the entry made is the caller's own"),
    ("leaderboard.get", "tournament_id", "leaderboards are public; the standing shown is the caller's own"),
    ("loyalty.setcharacter", "id", "the characters are the site's list, the same for everyone"),
    ("loyalty.buyproduct", "product_id", "the shop's products are the same for everyone"),
    ("campaigns.takepromotions", "offer_id", "offers are campaigns everyone sees; the bonus made is the caller's"),
    ("cashier.makedeposit", "campaign_offer_id", "offers are campaigns everyone sees; the deposit is the caller's"),
    ("auth.register", "goal_entry_id", "marketing attribution from a public link"),
    ("auth.register", "goal_id", "marketing attribution from a public link"),
    ("auth.register", "link_id", "marketing attribution from a public link"),
    ("auth.register", "publisher_id", "marketing attribution from a public link"),
    ("auth.register", "track_id", "marketing attribution from a public link"),
    ("auth.telegram", "id", "the Telegram user's own id inside init data signed with the bot's token"),
    ("account.linkTelegram", "id", "the Telegram user's own id inside a Login Widget answer Telegram signed"),
    (
        "verification.getAccessToken",
        "externalActionId",
        "an action of the caller's own applicant: the provider scopes it to cr-{uid}",
    ),
    ("account.addcontact", "contact", "adds to the caller's own contacts; one another player has is refused TAKEN"),
    ("account.unsubscribe", "token", "a signed link: its HMAC is the capability (a forged one is refused)"),
    ("sportsbook.getEvent", "event_id", "the sportsbook's calendar is public"),
    ("bets.place", "request_id", "the caller's own idempotency key, scoped to the caller's bets"),
    (
        "bets.place",
        "betting_bonus_id",
        "betting_bonuses::a_free_bet_wins_its_winnings_only_and_an_odds_boost_pays_its_capped_extra: another player's \
         betting bonus is refused NOT_FOUND and nothing moves (a row here needs a fed calendar)",
    ),
    (
        "bets.cashOut",
        "bet_id",
        "sportsbook::placement_settlement_resettlement_cash_out_and_rollback_keep_balances_and_ledger_right: \
         another player's bet is refused NOT_FOUND and nothing moves (a row here needs a fed calendar)",
    ),
];

/// Routes whose key is itself the capability, as a payment provider's page is: whoever holds the
/// link may use it, so what keeps another player out is that it cannot be guessed.
/// [`capabilities_cannot_be_guessed`] checks each key Alice got and that a forged one is refused.
const CAPABILITIES: &[(&str, &str)] = &[
    ("/sandbox/pay/{id}", "the payment's id: a random (version 4) UUID"),
    ("/sandbox/kyc/{token}", "48 hex digits: 24 random bytes"),
    (
        "/games/house/{sysname}/{round,reveal,cashout,state}, /games/house/{fairness,history}",
        "the game session's token: 32 random bytes",
    ),
];

async fn capabilities_cannot_be_guessed(app: &TestApp, w: &World) {
    assert_eq!(CAPABILITIES.len(), 3, "each capability route is checked below");
    let uuid = uuid::Uuid::parse_str(&w.deposit).unwrap();
    assert_eq!(uuid.get_version(), Some(uuid::Version::Random), "{}", w.deposit);
    let forged = app.url(&format!("/sandbox/pay/{}", uuid::Uuid::new_v4()));
    assert_eq!(w.bob.get(&forged).send().await.unwrap().status(), StatusCode::NOT_FOUND);

    let token = w.kyc_page.rsplit('/').next().unwrap();
    assert!(token.len() == 48 && token.bytes().all(|b| b.is_ascii_hexdigit()), "{}", w.kyc_page);
    let forged = app.url(&format!("/sandbox/kyc/{}", "0".repeat(48)));
    assert_eq!(w.bob.get(&forged).send().await.unwrap().status(), StatusCode::NOT_FOUND);

    assert_eq!(w.game_token.len(), 43, "32 bytes in unpadded base64url: {}", w.game_token);
    let forged = "A".repeat(43);
    for path in ["/games/house/dice/state", "/games/house/fairness", "/games/house/history"] {
        let response = w.bob.get(app.url(&format!("{path}?token={forged}"))).send().await.unwrap();
        let (status, body) = read_json(response).await;
        assert!(status.is_client_error(), "{path}: {status} {body}");
        assert!(body.get("error").is_some(), "{path}: {body}");
    }
}

/// Whether an input property names something by id or key: `id`, `…_id`, `…Id`, `…key`, and
/// the login, contact and token parameters that name a player's account, contact or link.
fn id_like(name: &str) -> bool {
    name == "id"
        || name == "login"
        || name.ends_with("_id")
        || name.ends_with("Id")
        || name.ends_with("key")
        || name == "contact"
        || name == "token"
}

/// Everything Alice can see of her own state, and Bob of his: what must not move.
async fn snapshot(app: &TestApp, client: &reqwest::Client, w: &World) -> Value {
    let reads: &[(&str, &[(&str, &str)])] = &[
        ("account.getBalance", &[]),
        ("account.getInfo", &[]),
        ("account.getprofileinfo", &[("fields", "contacts")]),
        ("cashier.gethistory", &[("type", "deposit")]),
        ("cashier.gethistory", &[("type", "withdrawal")]),
        ("bonuses.get", &[("statuses", "offered,active,wagering,completed,expired,forfeited,cancelled")]),
        ("cashbacks.get", &[("statuses", "pending,active,paid_out,removed,expired,rejected")]),
        ("storage.getKeys", &[]),
        ("freespins.get", &[("status", "all")]),
        ("loyalty.getinfo", &[]),
        ("games.getHistory", &[]),
        ("games.gethistoryexportrequest", &[]),
        ("verification.getStatus", &[]),
    ];
    let mut out = serde_json::Map::new();
    for (method, query) in reads {
        let (status, body) = app.get_as(client, method, query).await;
        assert_eq!(status, StatusCode::OK, "{method}: {body}");
        out.insert(format!("{method} {query:?}"), body["data"].clone());
    }
    // The objects themselves as their owner sees them (a stranger's reads are refused above).
    for id in [&w.deposit, &w.withdrawal] {
        let (_, body) = app.get_as(client, "cashier.getdepositinfo", &[("id", id)]).await;
        out.insert(format!("cashier.getdepositinfo {id}"), body);
    }
    let (_, body) = app.get_as(client, "storage.get", &[("key", &w.storage_key)]).await;
    out.insert("storage.get".into(), body);
    out.insert("mailbox".into(), json!(app.mailbox_count(ALICE_PHONE_FULL).await));
    Value::Object(out)
}

/// Asserts two snapshots are equal, naming the reads that differ.
fn unmoved(before: &Value, after: &Value, what: &str) {
    let (before, after) = (before.as_object().unwrap(), after.as_object().unwrap());
    let moved: Vec<String> = before
        .iter()
        .filter(|(read, value)| after.get(*read) != Some(value))
        .map(|(read, value)| format!("{read}: {value} -> {}", after.get(read).unwrap_or(&Value::Null)))
        .collect();
    assert!(moved.is_empty(), "{what} moved: {moved:#?}");
}

async fn send(app: &TestApp, client: &reqwest::Client, call: Call, params: &Params) -> (u16, Value) {
    let pairs: Vec<(&str, &str)> = params.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let param = |name: &str| params.iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone()).unwrap();
    let (status, body) = match call {
        Call::ApiGet(method) => app.get_as(client, method, &pairs).await,
        Call::ApiPost(method) => app.post_as(client, method, &pairs).await,
        Call::Get => {
            let response = client.get(param("path")).send().await.unwrap();
            (response.status(), Value::String(response.text().await.unwrap()))
        }
        Call::FreeSpin => {
            let game = param("game");
            let (status, launched) = launch(app, client, &game, "play").await;
            assert_eq!(status, StatusCode::OK, "{launched}");
            let body = json!({"token": launched["token"], "bet": "1.00", "freespin": true});
            let url = app.url(&format!("/games/house/{game}/round"));
            read_json(reqwest::Client::new().post(url).json(&body).send().await.unwrap()).await
        }
    };
    (status.as_u16(), body)
}

fn check(row: &Row, status: u16, body: &Value) {
    let what = format!("{} ({}): {body}", row.name, row.object);
    match row.expect {
        Expect::Refused(want, kind, field, code) => {
            assert_eq!(status, want, "{what}");
            assert_eq!(
                (body["status"].as_str(), body["error"]["type"].as_str()),
                (Some("error"), Some(kind)),
                "{what}"
            );
            assert_eq!(body["error"]["error_data"][field][0], code, "{what}");
        }
        Expect::Own(data) => {
            assert_eq!(status, 200, "{what}");
            assert_eq!(body["data"], serde_json::from_str::<Value>(data).unwrap(), "{what}");
        }
        Expect::Status(want) => assert_eq!(status, want, "{what}"),
    }
}

db_test!(async fn another_players_ids_are_refused_as_nonexistent_and_change_nothing(app) {
    let w = World::make(app).await;
    let alice_before = snapshot(app, &w.alice, &w).await;
    for row in rows() {
        let bob_before = snapshot(app, &w.bob, &w).await;
        let (status, theirs) = send(app, &w.bob, row.call, &(row.alices)(&w)).await;
        check(&row, status, &theirs);
        let (unknown_status, unknown) = send(app, &w.bob, row.call, &(row.nobodys)(&w)).await;
        check(&row, unknown_status, &unknown);
        assert_eq!(theirs, unknown, "{}: another player's id must answer as one nobody has", row.name);
        unmoved(&alice_before, &snapshot(app, &w.alice, &w).await, &format!("{}: Alice's state", row.name));
        // A refusal changes nothing for anyone; a call in the caller's own space changes only his.
        if !matches!(row.expect, Expect::Own(_)) {
            unmoved(&bob_before, &snapshot(app, &w.bob, &w).await, &format!("{}: Bob's state", row.name));
        }
    }
    // Alice's objects still work for her: Bob's attempts used up nothing of hers.
    let (status, body) =
        app.post_as(&w.alice, "account.confirmContact", &[("contact", ALICE_PHONE_FULL), ("code", &w.phone_code)]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(w.alice.get(&w.export_url).send().await.unwrap().status(), StatusCode::OK);
    let (status, body) = app.post_as(&w.alice, "cashbacks.payout", &[("cashback_id", &w.cashback.to_string())]).await;
    assert_eq!((status, body["data"]["status"].as_str()), (StatusCode::OK, Some("paid_out")), "{body}");
    let report = croupier_server::ledger::check(app.state.db()).await.unwrap();
    assert!(report.violations.is_empty(), "{:?}", report.violations);
    capabilities_cannot_be_guessed(app, &w).await;
});

/// The input properties of each method in the OpenAPI document, `$ref`s and compositions followed.
fn inputs(doc: &Value) -> Vec<(String, BTreeSet<String>)> {
    fn collect(doc: &Value, schema: &Value, out: &mut BTreeSet<String>) {
        if let Some(name) = schema["$ref"].as_str().and_then(|r| r.strip_prefix("#/components/schemas/")) {
            collect(doc, &doc["components"]["schemas"][name], out);
        }
        if let Some(properties) = schema["properties"].as_object() {
            out.extend(properties.keys().cloned());
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            for part in schema[key].as_array().into_iter().flatten() {
                collect(doc, part, out);
            }
        }
    }
    let paths = doc["paths"].as_object().expect("paths");
    paths
        .iter()
        .filter_map(|(path, item)| {
            let method = path.strip_prefix("/api/")?;
            let mut properties = BTreeSet::new();
            let body = &item["post"]["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"];
            collect(doc, body, &mut properties);
            for parameter in item["get"]["parameters"].as_array().into_iter().flatten() {
                properties.extend(parameter["name"].as_str().map(str::to_owned));
            }
            Some((method.to_owned(), properties))
        })
        .collect()
}

db_test!(async fn every_id_taking_method_has_a_row_or_a_reason(app) {
    let response = reqwest::get(app.url("/api/openapi.json")).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let doc: Value = response.json().await.unwrap();
    let methods = inputs(&doc);
    assert!(methods.len() > 50, "the document lists the registry: {}", methods.len());

    let blank = World::default();
    let mut covered: BTreeSet<(String, String)> = BTreeSet::new();
    for row in rows() {
        if let Call::ApiGet(method) | Call::ApiPost(method) = row.call {
            assert_eq!(method, row.name, "a row's name is its method");
            assert!(id_like(row.key), "{method}: {} is not an id-like name", row.key);
            assert!((row.alices)(&blank).iter().any(|(k, _)| *k == row.key), "{method}: {} is not sent", row.key);
            covered.insert((method.to_owned(), row.key.to_owned()));
        }
    }
    for (method, parameter, reason) in PUBLIC_IDS {
        assert!(!reason.is_empty());
        let fresh = covered.insert(((*method).to_owned(), (*parameter).to_owned()));
        assert!(fresh, "{method} {parameter}: both in the table and in PUBLIC_IDS");
    }
    let mut missing = Vec::new();
    let mut present = BTreeSet::new();
    for (method, properties) in &methods {
        for property in properties.iter().filter(|p| id_like(p)) {
            let key = (method.clone(), property.clone());
            if !covered.contains(&key) {
                missing.push(format!("{method} {property}"));
            }
            present.insert(key);
        }
    }
    assert!(missing.is_empty(), "methods taking ids with neither a row in isolation::rows nor a reason in PUBLIC_IDS: {missing:?}");
    let stale: Vec<_> = covered.difference(&present).collect();
    assert!(stale.is_empty(), "rows or reasons for parameters the API no longer has: {stale:?}");
});
