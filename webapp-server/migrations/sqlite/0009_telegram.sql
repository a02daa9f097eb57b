-- Telegram notifications (issue 9): the chats the bot has seen and the transactional outbox.

-- One row per Telegram user who wrote to the bot in private (the bot tells the server through the
-- internal API). Notifications go to `chat_id`; `blocked_at` is set when Telegram answers that
-- the player blocked the bot (nothing is sent until they /start again, which clears it).
CREATE TABLE telegram_chats (
    -- The Telegram user id, as `social_identities.subject` holds it for provider `telegram`.
    telegram_id TEXT PRIMARY KEY NOT NULL,
    chat_id BIGINT NOT NULL,
    -- The language chosen with /language (NULL: the account's, else Telegram's).
    locale TEXT NULL,
    language_code TEXT NULL,
    blocked_at BIGINT NULL,
    updated_at BIGINT NOT NULL
);

-- Written in the same transaction as the event it announces; delivered at least once by the
-- notification job. `idempotency_key` names the event (`deposit:{id}:success`, …) so the same
-- event never queues twice; `next_attempt_at` doubles as the delivery claim.
CREATE TABLE notification_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    idempotency_key TEXT NOT NULL UNIQUE,
    user_id BIGINT NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    -- The notice as JSON (secrets such as codes are wiped once delivered).
    payload TEXT NOT NULL,
    -- pending | sent | skipped | failed
    status TEXT NOT NULL DEFAULT 'pending',
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    sent_at BIGINT NULL,
    last_error TEXT NULL
);
CREATE INDEX notification_outbox_due ON notification_outbox (status, next_attempt_at);
CREATE INDEX notification_outbox_by_user ON notification_outbox (user_id, created_at);
