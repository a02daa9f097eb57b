-- The player's key-value storage (SPEC §7 storage.get, storage.set, storage.getKeys): at most
-- 100 keys per player, the limit checked by the server.
CREATE TABLE player_storage (
    user_id BIGINT NOT NULL REFERENCES users(id),
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, key)
);

-- Cashbacks operators promise players (SPEC §3 Cashback). Paying them out is a later issue:
-- receiving_expired_at and paid_out_at stay NULL until then.
CREATE TABLE cashbacks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id),
    -- active | paid_out
    status TEXT NOT NULL,
    description_en TEXT NOT NULL,
    description_fr TEXT NOT NULL,
    -- Minor units of currency.
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    receiving_expired_at BIGINT NULL,
    paid_out_at BIGINT NULL,
    end_date BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX cashbacks_by_user ON cashbacks (user_id, status, created_at);
