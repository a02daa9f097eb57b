-- Postings keep their transaction and account ids without foreign keys. Only `ledger::post`
-- writes postings, in the same statement that writes (or finds) their transaction and accounts,
-- and `croupier-server ledger check` verifies every reference along with the sums. The two
-- per-row foreign-key triggers were about a sixth of PostgreSQL's time per posting in
-- `make bench`, on the hot path of every bet and win.
ALTER TABLE ledger_postings DROP CONSTRAINT IF EXISTS ledger_postings_transaction_id_fkey;
ALTER TABLE ledger_postings DROP CONSTRAINT IF EXISTS ledger_postings_account_id_fkey;
