-- Bonuses, campaigns and promo codes (issue 17). Money columns are minor units of the row's
-- currency; times are Unix milliseconds. The engine is `features::bonuses`; its docs describe the
-- states and the rules these rows follow.

-- A campaign (SPEC §3 Offer): a trigger and a reward, with its validity window and takers.
CREATE TABLE campaigns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sysname TEXT NOT NULL UNIQUE,
    -- draft | active | paused | ended
    status TEXT NOT NULL,
    -- registration | deposit | promo_code | manual
    trigger_action TEXT NOT NULL,
    -- The nth successful deposit that qualifies (1 = the first), NULL for any.
    deposit_number BIGINT NULL,
    -- Comma-separated payment method sysnames that do not qualify.
    exclude_methods TEXT NOT NULL DEFAULT '',
    -- JSON: who may take it, e.g. {"countries": ["FR"]}; {} for everyone.
    audience TEXT NOT NULL DEFAULT '{}',
    -- deposit_match | fixed | freespins | freebet (freespins may also come with the others)
    reward TEXT NOT NULL,
    match_percent BIGINT NOT NULL DEFAULT 0,
    freespin_game TEXT NULL,
    freespin_count BIGINT NOT NULL DEFAULT 0,
    wager_multiplier BIGINT NOT NULL DEFAULT 0,
    -- 1: the wagering target is (bonus + deposit) × multiplier.
    wager_includes_deposit BIGINT NOT NULL DEFAULT 0,
    -- Comma-separated game sysnames the bonus is for; '' for every game.
    games TEXT NOT NULL DEFAULT '',
    title_en TEXT NOT NULL,
    title_fr TEXT NOT NULL,
    text_en TEXT NOT NULL,
    text_fr TEXT NOT NULL,
    terms_en TEXT NOT NULL DEFAULT '',
    terms_fr TEXT NOT NULL DEFAULT '',
    image_url TEXT NULL,
    -- Comma-separated slugs of the content promotions that advertise it.
    promotions TEXT NOT NULL DEFAULT '',
    -- When it can be taken (NULL: no bound).
    starts_at BIGINT NULL,
    ends_at BIGINT NULL,
    -- How long a taken bonus waits for activation or its deposit, and how long it can be wagered.
    claim_days BIGINT NOT NULL DEFAULT 7,
    wager_days BIGINT NOT NULL DEFAULT 30,
    max_takers BIGINT NULL,
    takers BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- A campaign's amounts per currency: it is not offered in a currency it has no row for.
CREATE TABLE campaign_amounts (
    campaign_id BIGINT NOT NULL REFERENCES campaigns(id),
    currency TEXT NOT NULL,
    min_deposit BIGINT NOT NULL DEFAULT 0,
    -- deposit_match: the cap; fixed: the amount; freebet: the free bet's stake.
    max_bonus BIGINT NOT NULL DEFAULT 0,
    -- The largest bet while wagering (0: no limit).
    max_bet BIGINT NOT NULL DEFAULT 0,
    -- The most of the bonus that turns into real money on completion (NULL: all of it).
    max_conversion BIGINT NULL,
    freespin_bet BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (campaign_id, currency)
);

-- Promo codes: `code_key` is the code upper-cased; a code belongs to one campaign.
CREATE TABLE promo_codes (
    code_key TEXT PRIMARY KEY NOT NULL,
    code TEXT NOT NULL,
    campaign_id BIGINT NOT NULL REFERENCES campaigns(id),
    -- active | paused
    status TEXT NOT NULL,
    max_uses BIGINT NULL,
    uses BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);

-- A player's bonus: offered → active → wagering → completed | expired | forfeited | cancelled.
CREATE TABLE player_bonuses (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id),
    campaign_id BIGINT NULL REFERENCES campaigns(id),
    -- One bonus per campaign and player ("campaign:{id}:{user}"), or "manual:{uuid}".
    claim_key TEXT NOT NULL UNIQUE,
    currency TEXT NOT NULL,
    status TEXT NOT NULL,
    -- The campaign's reward kind, copied so a later edit of the campaign does not change it.
    reward TEXT NOT NULL,
    match_percent BIGINT NOT NULL DEFAULT 0,
    max_bonus BIGINT NOT NULL DEFAULT 0,
    min_deposit BIGINT NOT NULL DEFAULT 0,
    wager_multiplier BIGINT NOT NULL DEFAULT 0,
    wager_includes_deposit BIGINT NOT NULL DEFAULT 0,
    games TEXT NOT NULL DEFAULT '',
    max_bet BIGINT NOT NULL DEFAULT 0,
    max_conversion BIGINT NULL,
    freespin_game TEXT NULL,
    freespin_count BIGINT NOT NULL DEFAULT 0,
    freespin_bet BIGINT NOT NULL DEFAULT 0,
    freespin_pack_id BIGINT NULL,
    -- 1 while active and waiting for a qualifying deposit.
    awaiting_deposit BIGINT NOT NULL DEFAULT 0,
    payment_id TEXT NULL,
    deposit_amount BIGINT NOT NULL DEFAULT 0,
    -- Bonus money credited, what of it the player holds now (its share of the bonus account).
    amount BIGINT NOT NULL DEFAULT 0,
    balance BIGINT NOT NULL DEFAULT 0,
    wager_target BIGINT NOT NULL DEFAULT 0,
    wagered BIGINT NOT NULL DEFAULT 0,
    converted BIGINT NOT NULL DEFAULT 0,
    forfeited BIGINT NOT NULL DEFAULT 0,
    wager_days BIGINT NOT NULL DEFAULT 30,
    title_en TEXT NOT NULL,
    title_fr TEXT NOT NULL,
    text_en TEXT NOT NULL,
    text_fr TEXT NOT NULL,
    -- The deadline of the current state (activate, deposit or wager by).
    expires_at BIGINT NULL,
    expiry_noticed BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    activated_at BIGINT NULL,
    finished_at BIGINT NULL
);
CREATE INDEX player_bonuses_by_user ON player_bonuses (user_id, status);
CREATE INDEX player_bonuses_by_expiry ON player_bonuses (status, expires_at);

-- Every transition of a bonus, with its reason and who made it (player | system | operator).
CREATE TABLE bonus_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    bonus_id BIGINT NOT NULL REFERENCES player_bonuses(id),
    from_status TEXT NULL,
    to_status TEXT NOT NULL,
    reason TEXT NOT NULL,
    actor TEXT NOT NULL,
    amount BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE INDEX bonus_events_by_bonus ON bonus_events (bonus_id, id);

-- What each wallet bet took from each bonus and the wagering it counted: a win is split by it
-- and a rollback gives it back.
CREATE TABLE bonus_stakes (
    provider TEXT NOT NULL,
    transaction_uuid TEXT NOT NULL,
    round_id BIGINT NOT NULL,
    bonus_id BIGINT NOT NULL,
    staked BIGINT NOT NULL,
    wagered BIGINT NOT NULL,
    rolled_back BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (provider, transaction_uuid, bonus_id)
);
CREATE INDEX bonus_stakes_by_round ON bonus_stakes (round_id);

-- The share of a stake that counts towards wagering, per game type or per game (the game's row
-- wins); 0 excludes. A game with neither counts 100 %.
CREATE TABLE bonus_contributions (
    scope TEXT NOT NULL,
    name TEXT NOT NULL,
    percent BIGINT NOT NULL,
    PRIMARY KEY (scope, name)
);
INSERT INTO bonus_contributions (scope, name, percent) VALUES
    ('type', 'slot', 100), ('type', 'fast', 100), ('type', 'casino', 10), ('type', 'live', 10);

-- Free-spin packs a bonus gave (their wins are the bonus's money).
ALTER TABLE freespin_packs ADD COLUMN bonus_id BIGINT NULL;

-- The wagering a bet counted, and towards which bonus, kept on the bet's own row (written
-- anyway) so that a rollback can take it back; bonus_stakes holds only money a bonus staked.
ALTER TABLE wallet_transactions ADD COLUMN bonus_id BIGINT NULL;
ALTER TABLE wallet_transactions ADD COLUMN bonus_wagered BIGINT NOT NULL DEFAULT 0;
