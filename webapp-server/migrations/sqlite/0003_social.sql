-- Social sign-in (OpenID Connect): which provider identity belongs to which account.
CREATE TABLE social_identities (
    provider TEXT NOT NULL,
    -- The provider's stable subject identifier (`sub`).
    subject TEXT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id),
    email TEXT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (provider, subject)
);
CREATE INDEX social_identities_by_user ON social_identities (user_id);
