-- Betting bonuses on sports bets (issue 20): the bonus a bet used, and an odds boost's terms and
-- what it has paid (the extra winnings, paid from the house's bonus liability).
ALTER TABLE sb_bets ADD COLUMN bonus_id BIGINT NULL;
ALTER TABLE sb_bets ADD COLUMN boost_bp BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sb_bets ADD COLUMN boost_cap BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sb_bets ADD COLUMN boost_paid BIGINT NOT NULL DEFAULT 0;
