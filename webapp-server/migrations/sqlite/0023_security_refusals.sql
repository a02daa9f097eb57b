-- Every refused guess (a wrong password, code or promo code; a rate limit tripping) of the
-- guessable entry points: who was tried (`subject`: the login, contact or user the attempt named,
-- never the secret itself), the player when known, the caller's address, what was refused and why.
-- Append-only: rows are never updated or deleted by the server (triggers refuse it), so an
-- attacker who later gains a foothold cannot erase the trail of their guesses through the app.
CREATE TABLE security_refusals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    action TEXT NOT NULL,
    reason TEXT NOT NULL,
    subject TEXT NULL,
    user_id BIGINT NULL,
    ip TEXT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX security_refusals_by_time ON security_refusals (created_at);
CREATE INDEX security_refusals_by_user ON security_refusals (user_id, created_at);
CREATE INDEX security_refusals_by_ip ON security_refusals (ip, created_at);
CREATE TRIGGER security_refusals_no_update BEFORE UPDATE ON security_refusals
BEGIN
    SELECT RAISE(ABORT, 'security_refusals is append-only');
END;
CREATE TRIGGER security_refusals_no_delete BEFORE DELETE ON security_refusals
BEGIN
    SELECT RAISE(ABORT, 'security_refusals is append-only');
END;
-- From this version on, promo_codes.code_key holds SHA-256 of the upper-cased code (hex), not the
-- code: the server re-keys older rows at start (features::bonuses::campaigns::rekey_promo_codes).
