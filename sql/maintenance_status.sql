-- The monitor's view: backlog counts, the oldest overdue age in seconds, the last committed cleanup, alarm.
-- Parameters: none
SELECT expired_records, expired_texts, oldest_overdue_seconds, last_success_at, alarm
FROM retrieval.maintenance_status()
