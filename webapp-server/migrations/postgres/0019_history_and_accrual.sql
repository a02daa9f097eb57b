-- The game history's "balance after" (issue 25) is the balance the wallet answered last in the
-- round: found by round, newest first, without a write more on the hot path.
CREATE INDEX wallet_transactions_by_round ON wallet_transactions (round_id, created_at);

-- Loyalty accrual is one statement in the bet's transaction (issue 18): it keeps what the last
-- accrual earned, answered by its RETURNING.
ALTER TABLE loyalty_accounts ADD COLUMN last_earned BIGINT NOT NULL DEFAULT 0;
