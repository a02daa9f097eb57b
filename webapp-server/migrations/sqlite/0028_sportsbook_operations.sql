-- Sportsbook operator tools (issue 20 "Operators"): operator holds on markets, limits per sport
-- and per player. Money in minor units of `currency`; times in unix ms.

-- operator_state: NULL while the feed drives the market; `suspended` (held suspended by an
-- operator: the feed may move prices, never reopen it), `settled` or `cancelled` (results or a
-- void given by hand: the feed's later results never overwrite them). feed_state: the state the
-- feed last gave (what applies again when the operator reopens). held_by/held_reason/held_at:
-- who set the hold, why, when.
ALTER TABLE sb_markets ADD COLUMN operator_state TEXT NULL;
ALTER TABLE sb_markets ADD COLUMN feed_state TEXT NULL;
ALTER TABLE sb_markets ADD COLUMN held_by TEXT NULL;
ALTER TABLE sb_markets ADD COLUMN held_reason TEXT NULL;
ALTER TABLE sb_markets ADD COLUMN held_at BIGINT NULL;
UPDATE sb_markets SET feed_state = state;
CREATE INDEX sb_markets_held ON sb_markets (operator_state);

-- Limits of a sport in one currency (NULL: no limit of its own; the currency's configured
-- limits always apply too).
CREATE TABLE sb_sport_limits (
    sport TEXT NOT NULL,
    currency TEXT NOT NULL,
    min_stake BIGINT NULL,
    max_stake BIGINT NULL,
    max_payout BIGINT NULL,
    reason TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (sport, currency)
);

-- Limits of one player: stake_factor_bp scales their maximum stake (10000 = as everyone,
-- 2500 = a quarter); max_stake caps a bet's total stake in `currency` (their currency);
-- blocked = 1 refuses every bet.
CREATE TABLE sb_player_limits (
    user_id BIGINT PRIMARY KEY REFERENCES users(id),
    stake_factor_bp BIGINT NULL,
    max_stake BIGINT NULL,
    currency TEXT NULL,
    blocked BIGINT NOT NULL DEFAULT 0,
    reason TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
