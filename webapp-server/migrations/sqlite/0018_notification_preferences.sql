-- What a player chose about the bot's messages (issue 18). No row: the defaults (no weekly
-- summary). Promotional messages follow the contacts' marketing subscriptions
-- (/profile/notification), see features::notify.
CREATE TABLE notification_preferences (
    user_id BIGINT PRIMARY KEY REFERENCES users(id),
    -- 1: the weekly club summary (points, level progress, the week's cashback), set with /summary.
    weekly_summary BIGINT NOT NULL DEFAULT 0,
    -- The last week (Unix ms / one week) a summary was queued for.
    summary_week BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL
);
CREATE INDEX notification_preferences_summary ON notification_preferences (weekly_summary, summary_week);
