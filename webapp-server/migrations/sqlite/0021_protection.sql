-- Player protection (issue 21): responsible gaming, identity verification, support, bans and
-- the maintenance switch.

-- The time-out or self-exclusion in force (the longest one), read with the player on every money
-- path without another query; `exclusions` keeps the history.
ALTER TABLE users ADD COLUMN blocked_until BIGINT NULL;
-- time_out | self_exclusion
ALTER TABLE users ADD COLUMN blocked_kind TEXT NULL;
-- 1 once the player has any loss or wager limit (the bet path reads the limits only then).
ALTER TABLE users ADD COLUMN play_limits BIGINT NOT NULL DEFAULT 0;
-- Minutes between reality checks; NULL: none.
ALTER TABLE users ADD COLUMN reality_check_minutes BIGINT NULL;
-- none | pending | verified | retry | rejected (is_verified / is_on_verification follow it).
ALTER TABLE users ADD COLUMN kyc_status TEXT NOT NULL DEFAULT 'none';
-- The moderation comment of a RETRY/FINAL rejection: shown to the player (never the internal one).
ALTER TABLE users ADD COLUMN kyc_comment TEXT NULL;
ALTER TABLE users ADD COLUMN ban_reason TEXT NULL;

CREATE TABLE exclusions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    starts_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX exclusions_by_user ON exclusions (user_id, ends_at);

-- Every responsible-gaming limit: kind deposit | loss | wager, one per period; increases wait
-- 24 hours in `pending_*`. Replaces deposit_limits.
CREATE TABLE rg_limits (
    user_id BIGINT NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    period TEXT NOT NULL,
    amount BIGINT NULL,
    pending_amount BIGINT NULL,
    pending_removal BIGINT NOT NULL DEFAULT 0,
    pending_from BIGINT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, kind, period)
);
INSERT INTO rg_limits (user_id, kind, period, amount, pending_amount, pending_removal, pending_from, updated_at)
    SELECT user_id, 'deposit', period, amount, pending_amount, pending_removal, pending_from, updated_at FROM deposit_limits;
DROP TABLE deposit_limits;

-- One applicant per player at the verification provider.
CREATE TABLE kyc_applicants (
    user_id BIGINT PRIMARY KEY REFERENCES users(id),
    provider TEXT NOT NULL,
    external_user_id TEXT NOT NULL UNIQUE,
    applicant_id TEXT NULL,
    -- The creation time (ms) of the newest review event applied: older ones never overwrite it.
    last_event_at BIGINT NOT NULL DEFAULT 0,
    review_answer TEXT NULL,
    reject_type TEXT NULL,
    internal_comment TEXT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- Each webhook event once (its digest names it: the same body twice is a replay).
CREATE TABLE kyc_events (
    provider TEXT NOT NULL,
    event_key TEXT NOT NULL,
    user_id BIGINT NULL,
    type TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (provider, event_key)
);

-- The sandbox verification provider's own records.
CREATE TABLE kyc_sandbox (
    token TEXT PRIMARY KEY,
    external_user_id TEXT NOT NULL,
    level_name TEXT NOT NULL,
    document_name TEXT NULL,
    document_type TEXT NULL,
    document_size BIGINT NULL,
    decision TEXT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE TABLE support_feedback (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NULL REFERENCES users(id),
    email TEXT NOT NULL,
    name TEXT NOT NULL,
    message TEXT NOT NULL,
    locale TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    -- When it reached the support address; NULL: not (yet) sent.
    emailed_at BIGINT NULL
);
CREATE INDEX support_feedback_by_time ON support_feedback (created_at);

-- What the chat widget reports (opened, message sent, …), for the operators' reports.
CREATE TABLE support_chat_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NULL REFERENCES users(id),
    provider TEXT NOT NULL,
    event TEXT NOT NULL,
    data TEXT NULL,
    created_at BIGINT NOT NULL
);

-- Site-wide switches operators flip at run time (`maintenance`: 1 or 0).
CREATE TABLE site_switches (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    reason TEXT NULL,
    updated_at BIGINT NOT NULL
);

-- What operators did to players (bans, verification overrides), with their reason. Append-only.
CREATE TABLE operator_actions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    action TEXT NOT NULL,
    user_id BIGINT NULL,
    reason TEXT NOT NULL,
    detail TEXT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX operator_actions_by_user ON operator_actions (user_id, created_at);
