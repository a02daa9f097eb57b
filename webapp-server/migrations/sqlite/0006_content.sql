-- The content service (issue 4). Timestamps are unix milliseconds; flags are 0/1.

-- One row: the content version (moved on by every content write, so each replica knows when its
-- cached copy is stale; updating it also serializes content writes) and when the demo content
-- was loaded (NULL until the first start has decided).
CREATE TABLE content_meta (
    id BIGINT PRIMARY KEY NOT NULL,
    version BIGINT NOT NULL,
    seeded_at BIGINT NULL
);
INSERT INTO content_meta (id, version, seeded_at) VALUES (1, 0, NULL);

-- Entries as JSON documents: one row per content type, entry id and locale ('' when the type is
-- not localized). The locale variants of an entry share its id; a single type's entry is id 1.
CREATE TABLE content_entries (
    content_type TEXT NOT NULL,
    id BIGINT NOT NULL,
    locale TEXT NOT NULL,
    -- JSON object of the attributes (components and media inline, relations as ids).
    data TEXT NOT NULL,
    -- NULL for a draft.
    published_at BIGINT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (content_type, id, locale)
);

-- People who sign in to the content service (editors), apart from players.
CREATE TABLE content_users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    username TEXT NOT NULL,
    -- Lower-cased username: unique regardless of case.
    username_key TEXT NOT NULL UNIQUE,
    -- Lower-cased address.
    email TEXT NOT NULL UNIQUE,
    -- local, or the OpenID Connect provider that vouched for the address.
    provider TEXT NOT NULL,
    password_hash TEXT NULL,
    -- authenticated | editor
    role TEXT NOT NULL,
    confirmed BIGINT NOT NULL,
    blocked BIGINT NOT NULL,
    -- Carried in every token; moved on by a password change or reset, which ends older tokens.
    token_version BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- One-time codes (password reset, e-mail confirmation); only their SHA-256 is kept.
CREATE TABLE content_user_codes (
    code_hash TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES content_users(id) ON DELETE CASCADE,
    -- reset | confirm
    purpose TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX content_user_codes_by_user ON content_user_codes (user_id, purpose);
