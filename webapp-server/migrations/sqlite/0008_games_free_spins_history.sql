-- Games, part two (issue 6): free-spin packs and game-history exports.
-- A pack of free spins for one game: each spin is a round at `bet` with no debit; wins go to
-- the main or the bonus account as `win_account` says.
CREATE TABLE freespin_packs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id),
    game_id BIGINT NOT NULL REFERENCES games(id),
    currency TEXT NOT NULL,
    -- Minor units staked by each spin.
    bet BIGINT NOT NULL,
    total_count BIGINT NOT NULL,
    remaining_count BIGINT NOT NULL,
    -- main | bonus
    win_account TEXT NOT NULL,
    won BIGINT NOT NULL DEFAULT 0,
    -- active | used | expired
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX freespin_packs_by_user ON freespin_packs (user_id, status);

-- A request to export the player's game rounds to CSV; a job writes the file.
CREATE TABLE game_history_exports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id),
    -- pending | ready | failed
    status TEXT NOT NULL,
    -- The secret part of the download link (only its owner may use it, and only until expires_at).
    download_key TEXT NULL,
    csv TEXT NULL,
    row_count BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    ready_at BIGINT NULL,
    expires_at BIGINT NULL
);
CREATE INDEX game_history_exports_by_status ON game_history_exports (status, id);
