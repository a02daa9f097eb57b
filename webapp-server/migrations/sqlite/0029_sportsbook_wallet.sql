-- External sportsbook providers (issue 20): the signed sportsbook wallet protocol
-- (`features::sportsbook::provider`). Times in unix ms; prices in ten-thousandths of decimal
-- odds; money in minor units of the bet's currency.

-- A launch of a provider's frame: the token (stored hashed) names the player to the provider's
-- wallet calls; it binds player, provider and currency. balance and place need it unexpired;
-- settle, resettle, cancel and rollback accept it expired.
CREATE TABLE sb_provider_sessions (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id),
    provider TEXT NOT NULL,
    currency TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sb_provider_sessions_by_user ON sb_provider_sessions (user_id);

-- A bet placed at a provider; (provider, bet_ref) is the provider's own bet id. kind: single |
-- accumulator | system (system: its name). status: open | won | lost | void | cancelled.
-- potential: what the bet returns if every selection wins, computed from the prices at
-- placement (a settlement may not pay more). payout: what it has been paid; settle_version
-- numbers its payout movements (ledger keys `sportsbook:{provider}:bet:{id}:v{n}`).
-- expected_payout: the house's own figure from the provider's per-selection results (for
-- reconciliation; the provider's payout is what is paid).
CREATE TABLE sb_provider_bets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    provider TEXT NOT NULL,
    bet_ref TEXT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id),
    currency TEXT NOT NULL,
    kind TEXT NOT NULL,
    system TEXT NULL,
    stake_per_line BIGINT NOT NULL,
    lines BIGINT NOT NULL,
    stake BIGINT NOT NULL,
    potential BIGINT NOT NULL,
    payout BIGINT NOT NULL DEFAULT 0,
    expected_payout BIGINT NULL,
    status TEXT NOT NULL,
    settle_version BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    settled_at BIGINT NULL,
    UNIQUE (provider, bet_ref)
);
CREATE INDEX sb_provider_bets_by_user ON sb_provider_bets (user_id, created_at);

-- A provider bet's selections in slip order, as the provider named them, with the price taken
-- and, once settled, the provider's result (won | lost | void | half_won | half_lost) and
-- dead-heat factor (`1`, `1/2`, …).
CREATE TABLE sb_provider_bet_legs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    bet_id BIGINT NOT NULL REFERENCES sb_provider_bets(id),
    position BIGINT NOT NULL,
    selection_ref TEXT NOT NULL,
    event TEXT NOT NULL,
    market TEXT NOT NULL,
    selection TEXT NOT NULL,
    odds BIGINT NOT NULL,
    result TEXT NULL,
    dead_heat TEXT NULL
);
CREATE INDEX sb_provider_bet_legs_by_bet ON sb_provider_bet_legs (bet_id);

-- Every accepted wallet call that moves or changes a bet, by the provider's transaction id: a
-- repeat with the same fingerprint answers `response` again; with another, it is refused.
CREATE TABLE sb_provider_transactions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    provider TEXT NOT NULL,
    transaction_uuid TEXT NOT NULL,
    action TEXT NOT NULL,
    bet_id BIGINT NOT NULL,
    fingerprint TEXT NOT NULL,
    response TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (provider, transaction_uuid)
);
