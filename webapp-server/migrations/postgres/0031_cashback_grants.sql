-- An operator's cashback promise: the reason they gave (for the player's file; the descriptions
-- are what the player reads) and the idempotency key the console sends per grant, so a retried
-- request answers the cashback it made instead of promising it twice.
ALTER TABLE cashbacks ADD COLUMN reason TEXT NULL;
ALTER TABLE cashbacks ADD COLUMN request_id TEXT NULL;
CREATE UNIQUE INDEX cashbacks_by_request ON cashbacks (request_id);
