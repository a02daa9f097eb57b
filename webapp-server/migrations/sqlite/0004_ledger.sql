-- The double-entry ledger (issue 5). Amounts are integer minor units of the account's currency.
CREATE TABLE ledger_accounts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- 0 for house accounts.
    user_id BIGINT NOT NULL,
    -- player: main | bonus | betting_bonus | fun
    -- house: payment_clearing | withdrawal_holds | game_settlement | bonus_liability | jackpot_pool | fun_supply
    kind TEXT NOT NULL,
    currency TEXT NOT NULL,
    -- Player accounts never go below zero; house accounts may.
    is_player BIGINT NOT NULL,
    balance BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL,
    UNIQUE (user_id, kind, currency)
);

-- One movement of money: its postings sum to zero per currency.
CREATE TABLE ledger_transactions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- Payment id, provider transaction id, job run id…: a replay moves nothing twice.
    idempotency_key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    user_id BIGINT NULL,
    reference TEXT NULL,
    -- Canonical text of the postings, to tell a true replay from a reused key.
    fingerprint TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE ledger_postings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    transaction_id BIGINT NOT NULL REFERENCES ledger_transactions(id),
    account_id BIGINT NOT NULL REFERENCES ledger_accounts(id),
    amount BIGINT NOT NULL
);
CREATE INDEX ledger_postings_by_account ON ledger_postings (account_id);
CREATE INDEX ledger_postings_by_transaction ON ledger_postings (transaction_id);
