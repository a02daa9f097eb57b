-- A balance correction's idempotency key, given by the console per correction it sends: the
-- same key from the same operator answers the correction it made instead of moving money twice.
ALTER TABLE balance_corrections ADD COLUMN request_id TEXT NULL;
CREATE UNIQUE INDEX balance_corrections_by_request ON balance_corrections (requested_by, request_id);
