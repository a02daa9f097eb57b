-- Cashier (issue 5): deposits and withdrawals, the webhooks that settled them, deposit limits,
-- and the sandbox payment provider's own records.
CREATE TABLE payments (
    id TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id),
    -- deposit | withdrawal
    direction TEXT NOT NULL,
    method TEXT NOT NULL,
    provider TEXT NOT NULL,
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    -- deposit: pending | success | fail | cancel
    -- withdrawal: pending (awaiting approval) | processing | paid | cancelled | rejected | failed
    status TEXT NOT NULL,
    requisites TEXT NULL,
    campaign_offer_id TEXT NULL,
    domain TEXT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX payments_by_user ON payments (user_id, direction, created_at);
CREATE INDEX payments_by_status ON payments (direction, status, updated_at);

-- Webhook deliveries already handled: a replayed event is answered and ignored.
CREATE TABLE webhook_events (
    provider TEXT NOT NULL,
    event_id TEXT NOT NULL,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (provider, event_id)
);

-- Responsible gaming: one limit per period; increases wait 24 hours in `pending_*`.
CREATE TABLE deposit_limits (
    user_id BIGINT NOT NULL REFERENCES users(id),
    -- day | week | month
    period TEXT NOT NULL,
    amount BIGINT NULL,
    pending_amount BIGINT NULL,
    -- 1 when the pending change removes the limit.
    pending_removal BIGINT NOT NULL DEFAULT 0,
    pending_from BIGINT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, period)
);

-- The sandbox payment provider's side: what its payment page was told.
CREATE TABLE sandbox_payments (
    id TEXT PRIMARY KEY NOT NULL,
    -- deposit | payout
    kind TEXT NOT NULL,
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    -- created | success | fail | pending | cancel
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
