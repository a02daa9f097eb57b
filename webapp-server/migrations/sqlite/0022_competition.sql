-- Tournaments, jackpots and winners (issue 19).

-- A tournament. Times in unix ms. `currencies`: comma-separated, the first is the one scores and
-- prizes are counted in; `rates`: JSON {currency: millionths of the first currency per unit}, fixed
-- when the tournament is saved. `games`: JSON {sysnames, categories, providers} (all empty: every
-- game). `prizes`: JSON array of prize tiers. status: scheduled | closing | closed | cancelled
-- (upcoming / running / finished are read from the window).
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title_en TEXT NOT NULL,
    title_fr TEXT NOT NULL,
    description_en TEXT NOT NULL,
    description_fr TEXT NOT NULL,
    image TEXT NULL,
    starts_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    time_zone TEXT NOT NULL,
    currencies TEXT NOT NULL,
    rates TEXT NOT NULL,
    scoring TEXT NOT NULL,
    participation TEXT NOT NULL,
    min_bet BIGINT NULL,
    games TEXT NOT NULL,
    prizes TEXT NOT NULL,
    status TEXT NOT NULL,
    -- Days after which the next edition starts (0: none); the close schedules it.
    repeat_days BIGINT NOT NULL DEFAULT 0,
    board_version BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    closed_at BIGINT NULL,
    cancel_reason TEXT NULL
);
CREATE INDEX tournaments_by_window ON tournaments (status, ends_at);

-- Which games each running competition covers, read with the game session on every bet (one
-- indexed lookup): game_id 0 stands for every game. kind: tournament | jackpot. weight: a jackpot's
-- contribution for that game in basis points, when it differs from the pool's (0: the game pays
-- nothing in).
CREATE TABLE competition_games (
    kind TEXT NOT NULL,
    ref_id BIGINT NOT NULL,
    game_id BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    weight BIGINT NULL,
    PRIMARY KEY (kind, ref_id, game_id)
);
CREATE INDEX competition_games_by_game ON competition_games (game_id, ends_at);

-- A participant's score. reached_at: when the score last changed (ties: who got there first);
-- seq: bumped on every change, so a copy (the Redis board) never goes back to an older value.
CREATE TABLE tournament_scores (
    tournament_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    score BIGINT NOT NULL,
    reached_at BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    notify_rank BIGINT NOT NULL DEFAULT 0,
    joined_at BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_board ON tournament_scores (tournament_id, score DESC, reached_at, user_id);

-- What one bet scored in one tournament (its wallet key), so that a rollback takes it back.
CREATE TABLE tournament_points (
    tournament_id BIGINT NOT NULL,
    wallet_key TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    points BIGINT NOT NULL,
    PRIMARY KEY (wallet_key, tournament_id)
);

-- Scores changed since the board syncer last ran (it deletes the rows it has handled).
CREATE TABLE board_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL
);

-- The frozen result of a closed tournament: one row per prize rank, paid exactly once
-- (status pending → paid in the transaction that pays it).
CREATE TABLE tournament_prizes (
    tournament_id BIGINT NOT NULL,
    rank BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    score BIGINT NOT NULL,
    kind TEXT NOT NULL,
    prize TEXT NOT NULL,
    status TEXT NOT NULL,
    reference TEXT NULL,
    paid_at BIGINT NULL,
    PRIMARY KEY (tournament_id, rank)
);
CREATE INDEX tournament_prizes_pending ON tournament_prizes (status, tournament_id);

-- A jackpot pool. amount: what it holds now (seed + contributions of this cycle), in minor units
-- of its currency. trigger_amount: the amount at which it drops this cycle (the public cap, or the
-- hidden one drawn from a CSPRNG: trigger_hash = sha256("{trigger}:{salt}") is published, trigger
-- and salt are revealed when it drops). status: active | paused | closed.
CREATE TABLE jackpot_pools (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title_en TEXT NOT NULL,
    title_fr TEXT NOT NULL,
    description_en TEXT NOT NULL,
    description_fr TEXT NOT NULL,
    image TEXT NULL,
    currency TEXT NOT NULL,
    seed BIGINT NOT NULL,
    contribution_bps BIGINT NOT NULL,
    trigger_kind TEXT NOT NULL,
    must_drop_before BIGINT NOT NULL,
    games TEXT NOT NULL,
    status TEXT NOT NULL,
    cycle BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    trigger_amount BIGINT NOT NULL,
    salt TEXT NOT NULL,
    trigger_hash TEXT NOT NULL,
    cycle_started_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE jackpot_wins (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    pool_id BIGINT NOT NULL,
    cycle BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    game_id BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    trigger_kind TEXT NOT NULL,
    trigger_amount BIGINT NOT NULL,
    salt TEXT NOT NULL,
    trigger_hash TEXT NOT NULL,
    wallet_key TEXT NOT NULL,
    won_at BIGINT NOT NULL,
    UNIQUE (pool_id, cycle)
);
CREATE INDEX jackpot_wins_by_user ON jackpot_wins (user_id);

-- The winners feed: big game wins, jackpot drops and tournament prizes. reference is unique per
-- kind (a wallet key, a drop, a prize), so an event is listed once.
CREATE TABLE winners_feed (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    reference TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    game_id BIGINT NULL,
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    multiplier_x100 BIGINT NULL,
    tournament_id BIGINT NULL,
    pool_id BIGINT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (kind, reference)
);

-- How the player appears in public lists: nickname | masked (the masked login) | hidden.
ALTER TABLE users ADD COLUMN winners_display TEXT NOT NULL DEFAULT 'masked';
