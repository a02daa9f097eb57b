-- Postings keep their transaction and account ids without foreign keys, as on PostgreSQL (see
-- the PostgreSQL migration of the same number): only `ledger::post` writes postings, and
-- `croupier-server ledger check` verifies every reference. SQLite cannot drop a constraint, so
-- the table is rebuilt with the same rows, ids and indexes.
CREATE TABLE ledger_postings_unchained (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    transaction_id BIGINT NOT NULL,
    account_id BIGINT NOT NULL,
    amount BIGINT NOT NULL
);
INSERT INTO ledger_postings_unchained (id, transaction_id, account_id, amount)
    SELECT id, transaction_id, account_id, amount FROM ledger_postings;
DROP TABLE ledger_postings;
ALTER TABLE ledger_postings_unchained RENAME TO ledger_postings;
CREATE INDEX ledger_postings_by_account ON ledger_postings (account_id);
CREATE INDEX ledger_postings_by_transaction ON ledger_postings (transaction_id);
