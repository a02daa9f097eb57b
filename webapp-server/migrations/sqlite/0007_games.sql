-- Games (issue 6): the catalogue, launch sessions, the provider wallet's transactions and rounds,
-- and the house provider's provably-fair seeds.
CREATE TABLE game_providers (
    sysname TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    -- house (built in) | external (seamless wallet through /provider/wallet/{sysname}/…)
    kind TEXT NOT NULL,
    sort BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sysname TEXT NOT NULL UNIQUE,
    provider TEXT NOT NULL REFERENCES game_providers(sysname),
    -- casino | slot | live | fast
    game_type TEXT NOT NULL,
    name_en TEXT NOT NULL,
    name_fr TEXT NOT NULL,
    image_url TEXT NOT NULL,
    -- Names of both languages folded to lower-case ASCII, for accent-insensitive search.
    search_text TEXT NOT NULL,
    -- Return to player in basis points (9600 = 96.00 %).
    rtp_bp BIGINT NOT NULL,
    volatility TEXT NOT NULL,
    has_demo BIGINT NOT NULL DEFAULT 1,
    -- JSON: SPEC §3 game config (canAccessSlotWithZeroBalance, canVisibleFavoriteIcon, visibleFullScreen, contentViewType).
    config TEXT NOT NULL,
    popularity BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE INDEX games_by_provider ON games (provider);

CREATE TABLE game_categories (
    slug TEXT PRIMARY KEY NOT NULL,
    name_en TEXT NOT NULL,
    name_fr TEXT NOT NULL,
    sort BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE game_category_members (
    category TEXT NOT NULL REFERENCES game_categories(slug),
    game_id BIGINT NOT NULL REFERENCES games(id),
    sort BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (category, game_id)
);

CREATE TABLE game_likes (
    user_id BIGINT NOT NULL REFERENCES users(id),
    game_id BIGINT NOT NULL REFERENCES games(id),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, game_id)
);

-- A launch: binds player, game, currency and mode. Only the token's SHA-256 is kept.
CREATE TABLE game_sessions (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id),
    game_id BIGINT NOT NULL REFERENCES games(id),
    currency TEXT NOT NULL,
    -- real | demo
    mode TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE TABLE game_rounds (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    provider TEXT NOT NULL,
    round TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    game_id BIGINT NOT NULL,
    currency TEXT NOT NULL,
    mode TEXT NOT NULL,
    bet BIGINT NOT NULL DEFAULT 0,
    win BIGINT NOT NULL DEFAULT 0,
    -- open | closed
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    closed_at BIGINT NULL,
    UNIQUE (provider, round)
);
CREATE INDEX game_rounds_by_user ON game_rounds (user_id, created_at);

-- Every wallet call that moved (or refused to move) money, by the provider's transaction id.
CREATE TABLE wallet_transactions (
    provider TEXT NOT NULL,
    transaction_uuid TEXT NOT NULL,
    -- bet | win | rollback
    kind TEXT NOT NULL,
    round_id BIGINT NOT NULL REFERENCES game_rounds(id),
    reference_uuid TEXT NULL,
    amount BIGINT NOT NULL,
    -- Canonical request fields: the same id with other fields is a duplicate, not a replay.
    fingerprint TEXT NOT NULL,
    -- The answer given, repeated on a replay.
    response TEXT NOT NULL,
    rolled_back BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (provider, transaction_uuid)
);

-- Provably fair (house games): the active seed pair per player; old server seeds are revealed.
CREATE TABLE fairness_seeds (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id),
    server_seed TEXT NOT NULL,
    server_seed_hash TEXT NOT NULL,
    client_seed TEXT NOT NULL,
    nonce BIGINT NOT NULL DEFAULT 0,
    active BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    revealed_at BIGINT NULL
);
CREATE INDEX fairness_seeds_by_user ON fairness_seeds (user_id, active);

-- House rounds: what was played and with which seed pair and nonce, to re-derive it.
CREATE TABLE house_rounds (
    round_id BIGINT PRIMARY KEY REFERENCES game_rounds(id),
    seed_id BIGINT NOT NULL REFERENCES fairness_seeds(id),
    nonce BIGINT NOT NULL,
    params TEXT NOT NULL,
    outcome TEXT NOT NULL
);
