-- A cashback programme (issue 18), configured by operators over the admin API: each period it
-- gives every qualifying player a share of their real-money net loss (or turnover) back.
-- Times are Unix milliseconds; money is minor units of the currency it is listed under.
CREATE TABLE cashback_programmes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sysname TEXT NOT NULL UNIQUE,
    -- The cashback's description for the player, in both languages.
    title_en TEXT NOT NULL,
    title_fr TEXT NOT NULL,
    -- daily | weekly | custom (period_hours says how long; a net-loss one lasts at least 24 h)
    period TEXT NOT NULL,
    period_hours BIGINT NOT NULL,
    -- The first period's start; the next ones follow back to back.
    starts_at BIGINT NOT NULL,
    -- net_loss | turnover
    basis TEXT NOT NULL,
    -- JSON: basis points of the basis per game type, "*" for the others, e.g. {"slot": 1000, "*": 500}.
    rates TEXT NOT NULL,
    -- JSON: the currencies that qualify, each {"min": …, "max": …, "approve_above": … or null}.
    limits TEXT NOT NULL,
    -- How long a cashback may be claimed once given.
    claim_hours BIGINT NOT NULL,
    -- real (to the main balance) | bonus (a wagering bonus through the bonus engine)
    pays TEXT NOT NULL,
    wager_multiplier BIGINT NOT NULL DEFAULT 0,
    wager_days BIGINT NOT NULL DEFAULT 7,
    active BIGINT NOT NULL DEFAULT 1,
    -- The end of the last period closed (starts_at before the first close): the job's watermark.
    closed_through BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- One period's close: started, then closed once every player's cashback of it is written.
CREATE TABLE cashback_periods (
    programme_id BIGINT NOT NULL REFERENCES cashback_programmes(id),
    period_start BIGINT NOT NULL,
    period_end BIGINT NOT NULL,
    -- closing | closed
    status TEXT NOT NULL,
    -- Cashbacks the close gave (counted when it closes).
    given BIGINT NOT NULL DEFAULT 0,
    started_at BIGINT NOT NULL,
    closed_at BIGINT NULL,
    PRIMARY KEY (programme_id, period_start)
);

-- A programme's cashback names its programme and period: one per player, currency and period,
-- whatever crash or second replica runs the close again.
ALTER TABLE cashbacks ADD COLUMN programme_id BIGINT NULL;
ALTER TABLE cashbacks ADD COLUMN period_start BIGINT NULL;
-- The net loss or turnover it was computed from (0 for an operator's own).
ALTER TABLE cashbacks ADD COLUMN basis_amount BIGINT NOT NULL DEFAULT 0;
-- real | bonus
ALTER TABLE cashbacks ADD COLUMN pays TEXT NOT NULL DEFAULT 'real';
ALTER TABLE cashbacks ADD COLUMN wager_multiplier BIGINT NOT NULL DEFAULT 0;
ALTER TABLE cashbacks ADD COLUMN wager_days BIGINT NOT NULL DEFAULT 7;
ALTER TABLE cashbacks ADD COLUMN claim_hours BIGINT NULL;
-- The bonus a cashback paid as a bonus became.
ALTER TABLE cashbacks ADD COLUMN bonus_id BIGINT NULL;
-- Who decided a pending one, and why it was rejected.
ALTER TABLE cashbacks ADD COLUMN decided_at BIGINT NULL;
ALTER TABLE cashbacks ADD COLUMN decision_reason TEXT NULL;
CREATE UNIQUE INDEX cashbacks_once_per_period ON cashbacks (programme_id, period_start, user_id, currency);
CREATE INDEX cashbacks_by_status ON cashbacks (status, receiving_expired_at);

-- The close reads a period's wallet movements by time.
CREATE INDEX wallet_transactions_by_time ON wallet_transactions (created_at);
