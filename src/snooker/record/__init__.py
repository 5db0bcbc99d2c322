"""The match record: every frame-log line and ruling stored as it happens (SQLite, WAL)."""
