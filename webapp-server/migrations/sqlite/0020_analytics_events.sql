-- The client's analytics events (events.handle, issue 25), for the operators' reports: the
-- player when signed in, else a keyed hash of the address (never the address). Pruned after
-- 90 days with the visit hits.
CREATE TABLE analytics_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at BIGINT NOT NULL,
    event TEXT NOT NULL,
    user_id BIGINT NULL REFERENCES users(id),
    visitor TEXT NOT NULL,
    -- A JSON object, as the client sent it.
    data TEXT NULL
);
CREATE INDEX analytics_events_by_time ON analytics_events (at);
CREATE INDEX analytics_events_by_event ON analytics_events (event, at);
