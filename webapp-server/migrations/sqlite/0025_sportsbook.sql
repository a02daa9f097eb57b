-- The house sportsbook (issue 20). Times in unix ms; prices in ten-thousandths of decimal odds
-- (2.5 = 25000); money in minor units of the bet's currency.

-- An event as its feed last described it; (feed, external_id) is the feed's own id.
-- status: scheduled | live | finished | cancelled.
CREATE TABLE sb_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    feed TEXT NOT NULL,
    external_id TEXT NOT NULL,
    sport TEXT NOT NULL,
    league TEXT NOT NULL,
    home TEXT NOT NULL,
    away TEXT NOT NULL,
    starts_at BIGINT NOT NULL,
    status TEXT NOT NULL,
    clock BIGINT NULL,
    home_score BIGINT NULL,
    away_score BIGINT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (feed, external_id)
);
CREATE INDEX sb_events_by_start ON sb_events (starts_at);

-- A market of an event (market_key: 1x2, totals:2.5, …). state: active | suspended | settled |
-- cancelled. results_version counts the changes of its results (settle, resettle, rollback,
-- cancel); a bet on it is recomputed after each. settled_at: when it was last settled or cancelled
-- (the window for a cancel by hand runs from it).
CREATE TABLE sb_markets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id BIGINT NOT NULL REFERENCES sb_events(id),
    market_key TEXT NOT NULL,
    state TEXT NOT NULL,
    results_version BIGINT NOT NULL DEFAULT 0,
    settled_at BIGINT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (event_id, market_key)
);

-- A selection with its price now (NULL: not offered) and, once settled, its result:
-- `won|void_factor|dead_heat_factor`, e.g. `1|0|1`, `0|1/2|1`, `1|0|1/2`.
CREATE TABLE sb_selections (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    market_id BIGINT NOT NULL REFERENCES sb_markets(id),
    selection_key TEXT NOT NULL,
    odds BIGINT NULL,
    result TEXT NULL,
    UNIQUE (market_id, selection_key)
);

-- A bet. kind: single | accumulator | system (system: its name). funds: main | betting_bonus,
-- the balance the stake came from. status: open | won | lost | void | cashed_out. payout: what
-- the bet has been paid so far (0 while open); settle_version numbers its payout movements, the
-- ledger keys `sportsbook:bet:{id}:v{n}`. dirty: a market of one of its legs changed results and
-- the settlement job has to recompute it.
CREATE TABLE sb_bets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL,
    request_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    kind TEXT NOT NULL,
    system TEXT NULL,
    currency TEXT NOT NULL,
    funds TEXT NOT NULL,
    stake_per_line BIGINT NOT NULL,
    lines BIGINT NOT NULL,
    stake BIGINT NOT NULL,
    potential BIGINT NOT NULL,
    max_payout BIGINT NOT NULL,
    status TEXT NOT NULL,
    payout BIGINT NOT NULL DEFAULT 0,
    settle_version BIGINT NOT NULL DEFAULT 0,
    dirty BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    settled_at BIGINT NULL,
    UNIQUE (user_id, request_key)
);
CREATE INDEX sb_bets_by_user ON sb_bets (user_id, created_at);
CREATE INDEX sb_bets_dirty ON sb_bets (dirty);

-- A bet's selections in slip order, with the price taken.
CREATE TABLE sb_bet_legs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    bet_id BIGINT NOT NULL REFERENCES sb_bets(id),
    position BIGINT NOT NULL,
    selection_id BIGINT NOT NULL REFERENCES sb_selections(id),
    market_id BIGINT NOT NULL,
    odds BIGINT NOT NULL
);
CREATE INDEX sb_bet_legs_by_bet ON sb_bet_legs (bet_id);
CREATE INDEX sb_bet_legs_by_market ON sb_bet_legs (market_id);
