-- Accounts (issue 3). Timestamps are unix milliseconds; flags are 0/1.
CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    fakename TEXT NULL,
    -- Lower-cased fakename: nicknames are unique regardless of case.
    fakename_key TEXT NULL UNIQUE,
    -- NULL for accounts created through social sign-in until a password is set.
    password_hash TEXT NULL,
    -- NULL until chosen (social sign-ups choose it to complete registration).
    currency TEXT NULL,
    locale TEXT NOT NULL,
    country_code TEXT NULL,
    -- active | banned | deleted
    status TEXT NOT NULL DEFAULT 'active',
    ban_type TEXT NULL,
    two_factor_auth BIGINT NOT NULL DEFAULT 0,
    is_registration_completed BIGINT NOT NULL DEFAULT 1,
    is_on_verification BIGINT NOT NULL DEFAULT 0,
    is_verified BIGINT NOT NULL DEFAULT 0,
    is_kyc_block_enabled BIGINT NOT NULL DEFAULT 0,
    -- Set by the ledger with the account's first money movement; the currency is fixed from then on.
    first_money_movement_at BIGINT NULL,
    promo_code TEXT NULL,
    -- JSON object of the tracking parameters given at registration.
    tracking TEXT NULL,
    reg_time BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE contacts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id),
    -- email | phone
    kind TEXT NOT NULL,
    -- Normalised: lower-case email, or the phone's digits with the country code first.
    contact TEXT NOT NULL,
    phone_country_code TEXT NULL,
    is_login BIGINT NOT NULL DEFAULT 0,
    is_confirmed BIGINT NOT NULL DEFAULT 0,
    is_subscribed BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    UNIQUE (kind, contact),
    UNIQUE (user_id, kind)
);

CREATE TABLE profiles (
    user_id BIGINT PRIMARY KEY REFERENCES users(id),
    first_name TEXT NULL,
    last_name TEXT NULL,
    sex BIGINT NULL,
    birth_date TEXT NULL,
    document_type TEXT NULL,
    document_number TEXT NULL,
    country TEXT NULL,
    region TEXT NULL,
    home_town TEXT NULL,
    address TEXT NULL,
    postcode TEXT NULL,
    updated_at BIGINT NOT NULL
);

-- The cookie holds a random token; only its SHA-256 is stored.
CREATE TABLE sessions (
    id TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id),
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    ip TEXT NULL,
    user_agent TEXT NULL
);
CREATE INDEX sessions_by_user ON sessions (user_id);

-- One-time codes (contact confirmation, two-factor, password restore). Only an HMAC is stored.
CREATE TABLE verification_codes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- contact | login | toggle_2fa | restore
    purpose TEXT NOT NULL,
    -- What the code proves: a contact, or a user id for account-level purposes.
    subject TEXT NOT NULL,
    user_id BIGINT NULL REFERENCES users(id),
    code_mac TEXT NOT NULL,
    -- For toggle_2fa: the state asked for (1 or 0).
    payload TEXT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    sent_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    consumed_at BIGINT NULL
);
CREATE INDEX verification_codes_by_subject ON verification_codes (purpose, subject);

-- Every message sent in dev mode, shown at /dev/mailbox (never written in prod).
CREATE TABLE dev_mailbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    channel TEXT NOT NULL,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    code TEXT NULL,
    sent_at BIGINT NOT NULL
);
CREATE INDEX dev_mailbox_by_recipient ON dev_mailbox (recipient);
