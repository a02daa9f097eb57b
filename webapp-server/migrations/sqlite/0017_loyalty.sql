-- Loyalty (issue 18): points earned by real-money play, levels, characters, a shop, quests and
-- the notices that tell the player. Points are stored in thousandths ("milli-points") so small
-- stakes still earn; every answer shows whole points. Times are Unix milliseconds.

-- The programme's switches (one row, id 1).
CREATE TABLE loyalty_settings (
    id BIGINT PRIMARY KEY,
    -- 1: accrual and the shop are on.
    active BIGINT NOT NULL DEFAULT 1,
    -- 1: a rolled-back bet that takes lifetime points under a level's threshold lowers the level.
    levels_drop BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL
);

-- Milli-points earned per major unit of real money staked, by game type ("*": any other).
CREATE TABLE loyalty_rates (
    game_type TEXT NOT NULL,
    currency TEXT NOT NULL,
    milli_per_unit BIGINT NOT NULL,
    PRIMARY KEY (game_type, currency)
);

CREATE TABLE loyalty_levels (
    level BIGINT PRIMARY KEY,
    -- Lifetime points (whole) that reach it.
    min_points BIGINT NOT NULL UNIQUE,
    title_en TEXT NOT NULL,
    title_fr TEXT NOT NULL,
    description_en TEXT NOT NULL,
    description_fr TEXT NOT NULL,
    image TEXT NULL,
    -- A bonus campaign granted on reaching it, through the bonus engine.
    campaign_id BIGINT NULL
);

CREATE TABLE loyalty_accounts (
    user_id BIGINT PRIMARY KEY REFERENCES users(id),
    -- Spendable milli-points (negative after a rollback of points already spent).
    points BIGINT NOT NULL DEFAULT 0,
    -- Lifetime milli-points: what the level is based on.
    lifetime BIGINT NOT NULL DEFAULT 0,
    level BIGINT NOT NULL DEFAULT 0,
    -- Lifetime milli-points at which the next level is reached: the hot path compares one number.
    next_level_at BIGINT NOT NULL DEFAULT 0,
    character_id BIGINT NULL,
    active BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- Every points movement but a bet's accrual (kept on its wallet_transactions row, `points`).
CREATE TABLE loyalty_entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id),
    -- What it is, once: rollback:{provider}:{uuid}, quest:{id}:{user}, purchase:{id}, adjust:{key}.
    entry_key TEXT NOT NULL UNIQUE,
    -- rollback | quest | purchase | adjust
    kind TEXT NOT NULL,
    points BIGINT NOT NULL,
    lifetime BIGINT NOT NULL,
    reason TEXT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX loyalty_entries_by_user ON loyalty_entries (user_id, created_at);

ALTER TABLE wallet_transactions ADD COLUMN points BIGINT NOT NULL DEFAULT 0;

CREATE TABLE loyalty_characters (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sysname TEXT NOT NULL UNIQUE,
    title_en TEXT NOT NULL,
    title_fr TEXT NOT NULL,
    description_en TEXT NOT NULL,
    description_fr TEXT NOT NULL,
    image TEXT NULL,
    min_level BIGINT NOT NULL DEFAULT 0,
    position BIGINT NOT NULL DEFAULT 0,
    active BIGINT NOT NULL DEFAULT 1
);

CREATE TABLE loyalty_products (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sysname TEXT NOT NULL UNIQUE,
    title_en TEXT NOT NULL,
    title_fr TEXT NOT NULL,
    description_en TEXT NOT NULL,
    description_fr TEXT NOT NULL,
    image TEXT NULL,
    -- Whole points.
    price BIGINT NOT NULL,
    -- bonus | freespins | freebet (a campaign granted through the bonus engine) | cashback_boost
    kind TEXT NOT NULL,
    campaign_id BIGINT NULL,
    -- cashback_boost: basis points added to the player's next cashback.
    boost_bps BIGINT NULL,
    min_level BIGINT NOT NULL DEFAULT 0,
    -- Left to sell; NULL: unlimited.
    stock BIGINT NULL,
    position BIGINT NOT NULL DEFAULT 0,
    active BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE loyalty_purchases (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id),
    product_id BIGINT NOT NULL REFERENCES loyalty_products(id),
    -- {user_id}:{request_id}: a retry or a second press buys once.
    request_key TEXT NOT NULL UNIQUE,
    price BIGINT NOT NULL,
    bonus_id BIGINT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX loyalty_purchases_by_user ON loyalty_purchases (user_id, created_at);

-- A cashback boost bought in the shop, used by the player's next cashback.
CREATE TABLE cashback_boosts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id),
    purchase_id BIGINT NOT NULL UNIQUE,
    bps BIGINT NOT NULL,
    -- NULL until a cashback uses it.
    cashback_id BIGINT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX cashback_boosts_unused ON cashback_boosts (user_id, cashback_id);

CREATE TABLE loyalty_programs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sysname TEXT NOT NULL UNIQUE,
    title_en TEXT NOT NULL,
    title_fr TEXT NOT NULL,
    description_en TEXT NOT NULL,
    description_fr TEXT NOT NULL,
    image TEXT NULL,
    position BIGINT NOT NULL DEFAULT 0,
    active BIGINT NOT NULL DEFAULT 1
);

CREATE TABLE loyalty_quests (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    program_id BIGINT NOT NULL REFERENCES loyalty_programs(id),
    sysname TEXT NOT NULL UNIQUE,
    title_en TEXT NOT NULL,
    title_fr TEXT NOT NULL,
    description_en TEXT NOT NULL,
    description_fr TEXT NOT NULL,
    -- confirm_email | fill_profile | deposits | rounds
    goal TEXT NOT NULL,
    target BIGINT NOT NULL,
    -- rounds: only this game type counts (NULL: any).
    game_type TEXT NULL,
    reward_points BIGINT NOT NULL,
    position BIGINT NOT NULL DEFAULT 0,
    active BIGINT NOT NULL DEFAULT 1
);

CREATE TABLE loyalty_quests_done (
    user_id BIGINT NOT NULL REFERENCES users(id),
    quest_id BIGINT NOT NULL REFERENCES loyalty_quests(id),
    completed_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, quest_id)
);

-- SPEC §3 "Loyalty notification", shown once in the client.
CREATE TABLE loyalty_notifications (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id),
    notice_key TEXT NOT NULL UNIQUE,
    -- quest | register | profile | confirm | product | level
    trigger_kind TEXT NOT NULL,
    -- credit | other
    notice_type TEXT NOT NULL,
    title_en TEXT NOT NULL,
    title_fr TEXT NOT NULL,
    message_en TEXT NOT NULL,
    message_fr TEXT NOT NULL,
    amount BIGINT NULL,
    -- points, or a currency code
    amount_type TEXT NULL,
    image TEXT NULL,
    seen_at BIGINT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX loyalty_notifications_by_user ON loyalty_notifications (user_id, seen_at, id);
