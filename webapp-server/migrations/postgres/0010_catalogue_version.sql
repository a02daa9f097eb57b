-- Games (issue 6): a version of the catalogue, bumped by triggers on every change to the games and
-- their category memberships, so each replica's in-memory index of `games.get` knows when to
-- reload — whoever made the change (the server, a bench generator, an operator's SQL).
CREATE TABLE catalogue_meta (
    id BIGINT PRIMARY KEY NOT NULL,
    version BIGINT NOT NULL
);
INSERT INTO catalogue_meta (id, version) VALUES (1, 1);

CREATE FUNCTION catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE catalogue_meta SET version = version + 1 WHERE id = 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER games_changed AFTER INSERT OR UPDATE OR DELETE ON games
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed();
CREATE TRIGGER game_members_changed AFTER INSERT OR UPDATE OR DELETE ON game_category_members
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed();
