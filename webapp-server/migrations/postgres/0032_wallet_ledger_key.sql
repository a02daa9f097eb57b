-- The ledger key of a wallet call's movement when it is not `wallet:{provider}:{transaction id}`:
-- the merged aggregator calls mint time-ordered keys (`wallet#…`, `games::wallet::batch`), so
-- their ledger inserts append to the key index instead of landing on a leaf each. NULL: the
-- movement's key is `wallet:{provider}:{transaction id}` (or the call moved no money).
ALTER TABLE wallet_transactions ADD COLUMN ledger_key TEXT NULL;
