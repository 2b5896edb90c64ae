-- A job_run row whose process is gone (killed, crashed, or the server restarted under it) no longer stays
-- `running` forever: the next run of any job marks it `abandoned`, with finished_at the instant it was noticed.
-- Its holder is gone when no backend with its backend_pid has been alive since before the run started (a backend
-- that took the same pid later does not count). drift-counts reports abandoned and long-running runs.
ALTER TABLE job_run DROP CONSTRAINT job_run_status_check;
ALTER TABLE job_run ADD CONSTRAINT job_run_status_check
    CHECK (status IN ('running', 'succeeded', 'failed', 'threshold_breached', 'interrupted', 'abandoned'));
