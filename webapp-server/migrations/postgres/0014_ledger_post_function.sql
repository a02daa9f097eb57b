-- `ledger_post(entries)`: posts ledger entries in order, in the caller's transaction, in one round
-- trip (`ledger::post` and `ledger::post_many` on PostgreSQL; SQLite has no round trips to save
-- and keeps its statements in Rust). Each entry is a JSON array, built by `ledger::Plan::json`:
--   [key, kind, user_id|null, reference|null, fingerprint, now_ms, currency, first_money_user|null,
--    [[user_id, kind, is_player, change], …]   -- the accounts in lock order: players, then house
--    [[account_index, amount], …]]             -- one per posting
-- and gets one row back: (ord, transaction_id, outcome), outcome 0 applied, 1 replayed (the key
-- was posted before with the same fingerprint), 2 key reused (another fingerprint), 3 not enough
-- money. A refused entry (1, 2, 3) writes nothing, so the entries after it — other players' — go
-- on in the same transaction: the funds are checked, with the player rows locked, before anything
-- is written. A player row that does not exist yet has a balance of 0.
CREATE FUNCTION ledger_post(entries JSONB)
RETURNS TABLE (ord INTEGER, transaction_id BIGINT, outcome INTEGER)
LANGUAGE plpgsql AS $$
DECLARE
    e JSONB;
    acc JSONB;
    n INTEGER := 0;
    tx BIGINT;
    previous TEXT;
    held BIGINT;
    short BOOLEAN;
    account BIGINT;
    accounts BIGINT[];
BEGIN
    FOR e IN SELECT value FROM jsonb_array_elements(entries) LOOP
        ord := n;
        n := n + 1;
        SELECT t.id, t.fingerprint INTO tx, previous
            FROM ledger_transactions t WHERE t.idempotency_key = e->>0;
        IF FOUND THEN
            transaction_id := tx;
            outcome := CASE WHEN previous = e->>4 THEN 1 ELSE 2 END;
            RETURN NEXT;
            CONTINUE;
        END IF;
        short := FALSE;
        FOR acc IN SELECT value FROM jsonb_array_elements(e->8) LOOP
            IF (acc->>2)::BIGINT = 1 AND (acc->>3)::BIGINT < 0 THEN
                SELECT a.balance INTO held FROM ledger_accounts a
                    WHERE a.user_id = (acc->>0)::BIGINT AND a.kind = acc->>1 AND a.currency = e->>6
                    FOR UPDATE;
                IF NOT FOUND THEN
                    held := 0;
                END IF;
                IF held + (acc->>3)::BIGINT < 0 THEN
                    short := TRUE;
                    EXIT;
                END IF;
            END IF;
        END LOOP;
        IF short THEN
            transaction_id := NULL;
            outcome := 3;
            RETURN NEXT;
            CONTINUE;
        END IF;
        INSERT INTO ledger_transactions (idempotency_key, kind, user_id, reference, fingerprint, created_at)
            VALUES (e->>0, e->>1, (e->>2)::BIGINT, e->>3, e->>4, (e->>5)::BIGINT)
            ON CONFLICT (idempotency_key) DO NOTHING
            RETURNING id INTO tx;
        IF NOT FOUND THEN
            -- Another transaction posted the same key since the lookup above (it waited for that
            -- transaction's commit on the key's unique index).
            SELECT t.id, t.fingerprint INTO tx, previous
                FROM ledger_transactions t WHERE t.idempotency_key = e->>0;
            transaction_id := tx;
            outcome := CASE WHEN previous = e->>4 THEN 1 ELSE 2 END;
            RETURN NEXT;
            CONTINUE;
        END IF;
        accounts := ARRAY[]::BIGINT[];
        FOR acc IN SELECT value FROM jsonb_array_elements(e->8) LOOP
            INSERT INTO ledger_accounts (user_id, kind, currency, is_player, balance, updated_at)
                VALUES ((acc->>0)::BIGINT, acc->>1, e->>6, (acc->>2)::BIGINT, (acc->>3)::BIGINT, (e->>5)::BIGINT)
                ON CONFLICT (user_id, kind, currency) DO UPDATE SET
                    balance = ledger_accounts.balance + excluded.balance, updated_at = excluded.updated_at
                RETURNING id INTO account;
            accounts := accounts || account;
        END LOOP;
        INSERT INTO ledger_postings (transaction_id, account_id, amount)
            SELECT tx, accounts[(leg->>0)::INTEGER + 1], (leg->>1)::BIGINT
            FROM jsonb_array_elements(e->9) AS legs(leg);
        IF e->>7 IS NOT NULL THEN
            UPDATE users SET first_money_movement_at = (e->>5)::BIGINT
                WHERE id = (e->>7)::BIGINT AND first_money_movement_at IS NULL;
        END IF;
        transaction_id := tx;
        outcome := 0;
        RETURN NEXT;
    END LOOP;
END
$$;
