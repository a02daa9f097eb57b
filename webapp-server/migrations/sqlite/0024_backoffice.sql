-- The back office (issue 22): operator accounts, their sessions, the operators' audit trail,
-- balance corrections, the withdrawal review, player notes and the jobs' last runs.

-- Operators are not players: their own table, their own sessions. `password_hash` is argon2id;
-- `totp_secret` is the TOTP secret sealed with the installation key (backoffice::totp::seal),
-- NULL until enrolment starts; `enrolled` once the first code was verified.
CREATE TABLE operators (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    -- admin | finance | support | marketing | content
    role TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    totp_secret TEXT NULL,
    enrolled BIGINT NOT NULL DEFAULT 0,
    -- The last TOTP time step accepted: a code is good once.
    totp_last_step BIGINT NOT NULL DEFAULT 0,
    failures BIGINT NOT NULL DEFAULT 0,
    locked_until BIGINT NULL,
    disabled BIGINT NOT NULL DEFAULT 0,
    locale TEXT NOT NULL DEFAULT 'en',
    created_at BIGINT NOT NULL,
    last_sign_in_at BIGINT NULL
);

-- `id` is the SHA-256 of the cookie's token (hex), as for players' sessions.
CREATE TABLE operator_sessions (
    id TEXT PRIMARY KEY NOT NULL,
    operator_id BIGINT NOT NULL REFERENCES operators(id),
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    ip TEXT NULL,
    user_agent TEXT NULL
);
CREATE INDEX operator_sessions_by_operator ON operator_sessions (operator_id);

-- Every operator action and every refused one; append-only (triggers refuse UPDATE and DELETE).
-- `before` / `after` are JSON texts; `outcome` ok | denied | failed.
CREATE TABLE operator_audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at BIGINT NOT NULL,
    operator_id BIGINT NULL,
    operator_name TEXT NULL,
    role TEXT NOT NULL,
    ip TEXT NULL,
    action TEXT NOT NULL,
    target_type TEXT NULL,
    target_id TEXT NULL,
    user_id BIGINT NULL,
    reason TEXT NULL,
    before_json TEXT NULL,
    after_json TEXT NULL,
    outcome TEXT NOT NULL
);
CREATE INDEX operator_audit_by_time ON operator_audit (at);
CREATE INDEX operator_audit_by_operator ON operator_audit (operator_id, at);
CREATE INDEX operator_audit_by_user ON operator_audit (user_id, at);
CREATE TRIGGER operator_audit_no_update BEFORE UPDATE ON operator_audit
BEGIN
    SELECT RAISE(ABORT, 'operator_audit is append-only');
END;
CREATE TRIGGER operator_audit_no_delete BEFORE DELETE ON operator_audit
BEGIN
    SELECT RAISE(ABORT, 'operator_audit is append-only');
END;

-- A credit or debit of a player's main balance by an operator, through the ledger
-- (kind `balance_correction`, key `correction:{id}`). At or above the four-eyes limit it waits
-- in `pending_approval` for another operator.
CREATE TABLE balance_corrections (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id),
    -- credit | debit
    direction TEXT NOT NULL,
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    reason_code TEXT NOT NULL,
    reason TEXT NOT NULL,
    -- applied | pending_approval | rejected
    state TEXT NOT NULL,
    requested_by BIGINT NULL,
    requested_by_name TEXT NOT NULL,
    decided_by BIGINT NULL,
    decided_by_name TEXT NULL,
    created_at BIGINT NOT NULL,
    decided_at BIGINT NULL
);
CREATE INDEX balance_corrections_by_user ON balance_corrections (user_id, created_at);
CREATE INDEX balance_corrections_by_state ON balance_corrections (state, created_at);

-- The operators' review of a withdrawal, beside `payments` (whose `status` the player's flow
-- keeps): `review` in_review | approved while the payment is still `pending`.
CREATE TABLE withdrawal_reviews (
    payment_id TEXT PRIMARY KEY NOT NULL REFERENCES payments(id),
    review TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
-- Each approval (the four-eyes rule needs two different operators above the limit).
CREATE TABLE withdrawal_approvals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    payment_id TEXT NOT NULL REFERENCES payments(id),
    operator_id BIGINT NULL,
    operator_name TEXT NOT NULL,
    at BIGINT NOT NULL,
    UNIQUE (payment_id, operator_id)
);
-- Each transition with its reason.
CREATE TABLE withdrawal_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    payment_id TEXT NOT NULL REFERENCES payments(id),
    from_state TEXT NOT NULL,
    to_state TEXT NOT NULL,
    operator_id BIGINT NULL,
    operator_name TEXT NOT NULL,
    reason TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX withdrawal_history_by_payment ON withdrawal_history (payment_id, id);

CREATE TABLE player_notes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id),
    text TEXT NOT NULL,
    operator_id BIGINT NULL,
    operator_name TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX player_notes_by_user ON player_notes (user_id, created_at);

-- The background jobs' last runs (jobs.rs writes one row per job after each run).
CREATE TABLE job_runs (
    name TEXT PRIMARY KEY NOT NULL,
    last_run_at BIGINT NOT NULL,
    last_ok BIGINT NOT NULL,
    last_error TEXT NULL
);
