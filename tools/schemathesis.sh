#!/usr/bin/env bash
# Schemathesis against /api/openapi.json of the release server: every phase (examples, coverage,
# fuzzing, stateful), checks that no answer is a 5xx and that status, content type and body match
# the document (its `/api` paths: the signed provider protocols under `/provider/` it also
# describes are tested in tests/api). Two runs: a guest's (the methods a guest may call) and a signed-in player's (every
# method but those that end the run's own session). Fails on any failure or error, and when more
# than SCHEMATHESIS_MAX_MISMATCH operations "mostly rejected generated data" (every valid case of
# one phase refused: a document that does not state the server's rules, or a run without the data
# the operation needs).
#
# The run's data (tools/schemathesis_hooks.py, loaded through SCHEMATHESIS_HOOKS): the server starts
# with an operator token and behind a "load balancer" (CROUPIER_TRUST_PROXY, so each case comes
# from its own address and the per-address limits see many clients, not one fuzzer); the player is
# registered, confirmed and funded; and before every second valid case of the operations that need
# state, the hooks make a fresh fixture (a bonus, a promo code, a cashback, a withdrawal, a code
# from the dev mailbox, ...) and put it in the case. See the module's docstring.
#
# Environment: CROUPIER_SERVER_BIN (default target/release/croupier-server), CARGO_TARGET_DIR,
# SCHEMATHESIS_MAX_EXAMPLES (cases per operation and phase, default 25), SCHEMATHESIS_MAX_MISMATCH
# (default 5, see below), CROUPIER_REQUIRE_SCHEMATHESIS / CI (a missing Python is then a failure,
# not a skip).
set -euo pipefail
cd "$(dirname "$0")/.."

target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
server_bin="${CROUPIER_SERVER_BIN:-$target_dir/release/croupier-server}"
venv="$target_dir/schemathesis-venv"
max_examples="${SCHEMATHESIS_MAX_EXAMPLES:-25}"
# Issue 24 asks for at most 5. Two operations cannot take a valid generated case in this run, and
# are left refused rather than left out: `account.unlinkTelegram` (the player has no Telegram link;
# linking needs a bot token and Telegram's signature, which the run does not have) and a guest's
# `account.unsubscribe` (its token is signed with the server's secret and only ever sent in a
# marketing e-mail). Before the document stated the required fields and the hooks gave the run its
# data, it was 38-42.
# The sportsbook's bets.place and bets.cashOut take an open price of the sandbox feed and a funded
# player of the hooks' own; account.changeTwoFactorAuth a player of its own (RESEND_TIME).
max_mismatch="${SCHEMATHESIS_MAX_MISMATCH:-5}"
# Schemathesis 4's CLI, report format and warning names are what this script reads.
schemathesis_spec='schemathesis>=4.32,<5'

must_run() { [ -n "${CROUPIER_REQUIRE_SCHEMATHESIS:-}" ] || [ -n "${CI:-}" ]; }

if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  if must_run; then
    echo "ERROR: python3 (with venv and ensurepip) is missing and CROUPIER_REQUIRE_SCHEMATHESIS/CI says Schemathesis must run"
    exit 1
  fi
  echo ""
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
  echo "!!  SCHEMATHESIS SKIPPED: no python3 with venv (Debian: apt-get install python3-venv)."
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
  echo ""
  exit 0
fi
if [ ! -x "$server_bin" ]; then
  echo "ERROR: no server binary at $server_bin (cargo build --release -p croupier-server)"
  exit 1
fi

# The virtual environment is reused; it is (re)installed when Schemathesis 4 is not in it.
if ! "$venv/bin/python" -c 'import schemathesis, sys; sys.exit(0 if schemathesis.__version__.startswith("4.") else 1)' \
  >/dev/null 2>&1; then
  echo "== installing $schemathesis_spec into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$schemathesis_spec"
fi
"$venv/bin/st" --version

work="$(mktemp -d "${TMPDIR:-/tmp}/croupier-schemathesis-XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

admin_token="$(python3 -c 'import secrets; print(secrets.token_hex(24))')"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
# As the browser tests start it (miniapp/e2e/server.ts): a fresh SQLite database, nothing from the
# developer's shell that would reach a real bot, Redis or configuration file; registrations are
# not limited per address, since the fuzzer registers from one.
(
  cd "$work"
  exec env -u TELEGRAM_BOT_TOKEN -u REDIS_URL -u CROUPIER_CONFIG -u CROUPIER_FORCE_LOGOUT_SECONDS \
    CROUPIER_ADDR="127.0.0.1:$port" CROUPIER_PUBLIC_URL="$base" DATABASE_URL="sqlite://$work/schemathesis.db" \
    CROUPIER_ENV=dev CROUPIER_REGISTRATIONS_PER_IP_HOUR=100000 CROUPIER_ADMIN_TOKEN="$admin_token" \
    CROUPIER_TRUST_PROXY=true RUST_LOG="${RUST_LOG:-warn}" \
    "$server_bin" >"$work/server.log" 2>&1
) &
server_pid=$!
for _ in $(seq 1 120); do
  if curl -fsS "$base/readyz" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "ERROR: croupier-server exited before it was ready:"; cat "$work/server.log"; exit 1
  fi
  sleep 0.25
done
curl -fsS "$base/readyz" >/dev/null || { echo "ERROR: croupier-server not ready:"; cat "$work/server.log"; exit 1; }

version="$(curl -fsS "$base/api/openapi.json" | python3 -c 'import json, sys; print(json.load(sys.stdin)["info"]["version"])')"
email="schemathesis-$RANDOM$RANDOM@example.com"
curl -fsS -o "$work/register.json" -D "$work/register.headers" -H "Origin: $base" \
  --data-urlencode "email=$email" --data-urlencode "password=secret123" \
  --data-urlencode "currency=USD" --data-urlencode "terms=1" "$base/api/auth.register?v=$version"
cookie="$(sed -n 's/^[Ss]et-[Cc]ookie: \(croupier_session=[^;]*\).*/\1/p' "$work/register.headers" | head -n 1)"
if [ -z "$cookie" ]; then
  echo "ERROR: registering $email gave no session cookie:"; cat "$work/register.headers" "$work/register.json"; exit 1
fi

# The run's own data, which no generator can guess (tools/schemathesis_hooks.py): the player is
# signed in, its e-mail confirmed, money on its balance, a deposit, and two campaigns of the
# operator's (bonuses granted by hand, promo codes); the hooks make each further fixture (a bonus,
# a promo code, a cashback, a withdrawal, a contact's code from the dev mailbox) just before the
# call that uses it. (Schemathesis' own `[[operations]] parameters` would not do: in 4.x a body
# field's value set there reaches only the fuzzing phase, not the examples and coverage phases,
# and one fixed value cannot be used up more than once.)
export SCHEMATHESIS_HOOKS="$PWD/tools/schemathesis_hooks.py"
export CROUPIER_ST_BASE="$base" CROUPIER_ST_VERSION="$version" CROUPIER_ST_ADMIN_TOKEN="$admin_token" \
  CROUPIER_ST_COOKIE="$cookie" CROUPIER_ST_EMAIL="$email" CROUPIER_ST_PASSWORD="secret123" \
  CROUPIER_ST_USER_ID="$(python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["uid"])' <"$work/register.json")"
fixtures="$(CROUPIER_ST_RUN=setup "$venv/bin/python" "$SCHEMATHESIS_HOOKS")" || {
  echo "ERROR: preparing the run's data failed"; tail -n 50 "$work/server.log"; exit 1
}
eval "$fixtures"

run() { # run NAME CONFIG [st options…]: one Schemathesis run, its JSON report in $work/NAME.json
  local name="$1" config="$2"
  shift 2
  export CROUPIER_ST_RUN="$name"
  echo "== Schemathesis: $name"
  local status=0
  # From the scratch directory: Schemathesis keeps a cache of crashes in its working directory.
  (cd "$work" && "$venv/bin/st" ${config:+--config-file "$config"} run "$base/api/openapi.json" \
    --phases examples,coverage,fuzzing,stateful \
    --checks not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance \
    --max-examples "$max_examples" --workers 1 --no-shrink --generation-database none \
    --header "Origin: $base" --request-timeout 10 --exclude-path-regex '^/provider/' \
    --report json --report-json-path "$work/$name.json" --no-color "$@") || status=$?
  echo "$name: exit $status"
  return 0
}

started=$SECONDS
# A guest: only the methods that do not need a session (a signed-in method answers a guest 401
# whatever its input, which is tested in tests/api; it would only dilute the run).
run guest "" --exclude-tag signed-in
# A signed-in player: every method but those that end the session this run signs in with (signing
# out, a self-exclusion, and signing in or up again, which replaces the browser's session; the
# guest run covers the last three). Its session cookie is set by the hooks, on every case.
run signed-in "" \
  --exclude-operation-id auth.logout --exclude-operation-id get:auth.logout \
  --exclude-operation-id responsibleGaming.exclude --exclude-operation-id auth.register \
  --exclude-operation-id auth.login --exclude-operation-id auth.telegram
elapsed=$((SECONDS - started))

if ! kill -0 "$server_pid" 2>/dev/null; then
  echo "ERROR: croupier-server died during the run:"; tail -n 100 "$work/server.log"; exit 1
fi

python3 - "$work" "$max_mismatch" "$elapsed" <<'PY'
import json, os, sys
work, max_mismatch, elapsed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
failed = False
mismatch = {}
for name in ("guest", "signed-in"):
    path = os.path.join(work, f"{name}.json")
    if not os.path.exists(path):
        print(f"ERROR: the {name} run wrote no report")
        failed = True
        continue
    report = json.load(open(path))
    cases = report["test_cases"]
    ops = report["operations"]
    print(f"{name}: {ops['tested']}/{ops['selected']} operations, {cases['generated']} cases, "
          f"{cases['with_failures']} with failures, {len(report['errors'])} errors, exit {report['exit_code']}")
    for f in report["failures"]:
        print(f"  failure: {json.dumps(f)[:400]}")
    for e in report["errors"]:
        print(f"  error: {json.dumps(e)[:400]}")
    if report["exit_code"] != 0 or report["failures"] or report["errors"] or not report["complete"]:
        failed = True
    for label in report["warnings"].get("validation_mismatch", []):
        mismatch.setdefault(label, []).append(name)
print(f"operations mostly rejecting generated data: {len(mismatch)} (ceiling {max_mismatch})")
for label in sorted(mismatch):
    print(f"  {label} ({', '.join(mismatch[label])})")
print(f"Schemathesis time: {elapsed} s")
if len(mismatch) > max_mismatch:
    failed = True
sys.exit(1 if failed else 0)
PY
