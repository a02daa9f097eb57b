-- Tracking (issue 7): the client's `GET /hit` beacon, one row per page load that carried it —
-- where the visitor came from and which affiliate link brought them. Kept for 90 days (a job
-- deletes older rows). No address is stored: only a salted hash of it, to count unique visitors.
CREATE TABLE visit_hits (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at BIGINT NOT NULL,
    track_id TEXT NULL,
    referer TEXT NULL,
    seon_session TEXT NULL,
    user_id BIGINT NULL,
    visitor TEXT NULL
);
CREATE INDEX visit_hits_by_time ON visit_hits (at);
CREATE INDEX visit_hits_by_track ON visit_hits (track_id, at);
