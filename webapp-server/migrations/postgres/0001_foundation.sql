-- Installation-wide settings kept by the server itself (installation id, first-start seeding marks).
CREATE TABLE app_settings (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
