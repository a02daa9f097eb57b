-- Games (issue 6): a version of the catalogue, bumped by triggers on every change to the games and
-- their category memberships, so each replica's in-memory index of `games.get` knows when to
-- reload — whoever made the change (the server, a bench generator, an operator's SQL).
CREATE TABLE catalogue_meta (
    id INTEGER PRIMARY KEY NOT NULL,
    version BIGINT NOT NULL
);
INSERT INTO catalogue_meta (id, version) VALUES (1, 1);

CREATE TRIGGER games_inserted AFTER INSERT ON games BEGIN UPDATE catalogue_meta SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER games_updated AFTER UPDATE ON games BEGIN UPDATE catalogue_meta SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER games_deleted AFTER DELETE ON games BEGIN UPDATE catalogue_meta SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER game_members_inserted AFTER INSERT ON game_category_members BEGIN UPDATE catalogue_meta SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER game_members_updated AFTER UPDATE ON game_category_members BEGIN UPDATE catalogue_meta SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER game_members_deleted AFTER DELETE ON game_category_members BEGIN UPDATE catalogue_meta SET version = version + 1 WHERE id = 1; END;
