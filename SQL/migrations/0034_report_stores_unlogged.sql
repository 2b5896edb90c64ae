-- build-reports' stores (issue 31): the stored months (0027) and the stored spans (0031) are UNLOGGED
-- (Reports/README.md, "Incremental runs"). They are a derived cache: every entry is a function of the history, fx_rate
-- and plan, recomputed by any run that finds it missing. A --full run rewrites all of them (at 200k subscriptions
-- 2.5M spans, 200k span digests and the months' rows), and writing that through the WAL was most of its storing time.
-- An unlogged table is truncated by crash recovery (and not sent to a standby); all five are, so after a crash they are
-- all empty together: no span set, no span digest and no month entry is found, and the next run recomputes and stores
-- everything, which is what a run does with an empty store. A digest is never left without its spans, nor a month
-- entry without its rows, because they are truncated together. The rows a table holds are unchanged by this.
-- The referencing table first: a permanent table may not reference an unlogged one.
ALTER TABLE report_stored_row SET UNLOGGED;
ALTER TABLE report_stored_month SET UNLOGGED;
ALTER TABLE report_stored_span SET UNLOGGED;
ALTER TABLE report_stored_span_input SET UNLOGGED;
ALTER TABLE report_stored_span_set SET UNLOGGED;
