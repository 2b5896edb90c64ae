-- What the job role `iap_job` may do, table by table: the whole list, applied by `migrate` after every run (as the
-- owner of the tables, in one transaction). Every privilege iap_job held on a table of the schema is revoked first, so
-- this list is the complete truth: a privilege not named here is not held. Only `migrate` (as iap_owner) changes
-- the schema; every other job connects as iap_job (deploy/postgres/roles.sql creates both roles).
--
-- The rule: a job may read every table; it may write only the rows its own work writes, and only in the way it
-- writes them. So the finance trail is append-only for the jobs: audit_log, reconciliation items, period locks and
-- snapshots take INSERT and nothing else; a close can be reopened (two columns, audited) but never rewritten; a
-- reconciliation run, an imported report file and an FX rate change only in the one column their writer sets; the
-- schema's bookkeeping and the reference tables (users, accounts, plans, store product mapping) are read-only.
-- DELETE is held only where retention or a report replacement deletes.
--
-- A table missing from this list gets nothing (MigrationsTests' JobRoleGrantsTests holds every table of the schema
-- listed, and the privileges in the database equal the list). Nothing happens in a database without the role.
-- Reasons per table are in docs/DATA_MODEL.md, "What the job role may do".
DO $grants$
DECLARE
    entry record;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'iap_job') THEN
        RETURN;
    END IF;
    FOR entry IN
        SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm')
    LOOP
        EXECUTE format('REVOKE ALL ON TABLE public.%I FROM iap_job', entry.relname);
    END LOOP;
    FOR entry IN
        SELECT g.table_name, g.privileges
        FROM (VALUES
            -- the schema's bookkeeping and the reference data: read only
            ('schema_migration', 'SELECT'),
            ('app_user', 'SELECT'),
            ('billing_account', 'SELECT'),
            ('plan', 'SELECT'),
            ('store_product_mapping', 'SELECT'),
            -- build-reports' placeholders (always empty; it fills temporary tables of the same names)
            ('report_run_filled', 'SELECT'),
            ('report_snapshot_run', 'SELECT'),
            ('report_contribution_run', 'SELECT'),
            ('report_movement_run', 'SELECT'),
            -- build-reports' stored months: a cache it replaces whole (an entry and its rows), never updates
            ('report_stored_month', 'SELECT, INSERT, DELETE'),
            ('report_stored_row', 'SELECT, INSERT, DELETE'),
            -- and a stored month's CSV lines, replaced with it (0062)
            ('report_stored_csv', 'SELECT, INSERT, DELETE'),
            ('report_subscriber_state_run', 'SELECT'),
            ('report_span_run', 'SELECT'),
            ('report_span_recomputed', 'SELECT'),
            ('report_span_difference', 'SELECT'),  -- the run's differing spans' placeholder (0071)
            ('report_trial_run', 'SELECT'),
            -- build-reports' stored spans: a cache it replaces per subscription (digest and spans together)
            ('report_stored_span_set', 'SELECT, INSERT, DELETE'),
            ('report_stored_span_input', 'SELECT, INSERT, DELETE'),
            ('report_stored_span', 'SELECT, INSERT, DELETE'),
            -- and each subscription's trial, stored beside its spans (0051)
            ('report_stored_trial', 'SELECT, INSERT, DELETE'),
            -- and the month digest's per-snapshot parts, stored with the spans they were placed from (0052)
            ('report_stored_snapshot_part', 'SELECT, INSERT, DELETE'),
            -- and the stored spans open after the set's instant, kept with the store for a night's placements (0063)
            ('report_stored_span_open', 'SELECT, INSERT, DELETE'),
            -- and a night's movements at its last snapshot, stored with the spans for the next night (0079); their
            -- partitions per basis are loaded directly (a binary COPY of the run's rows, the basis their default)
            ('report_stored_movement_set', 'SELECT, INSERT, DELETE'),
            ('report_stored_movement', 'SELECT, INSERT, DELETE'),
            ('report_stored_movement_corrected', 'SELECT, INSERT'),
            ('report_stored_movement_known', 'SELECT, INSERT'),
            ('report_movement_affected', 'SELECT'),  -- the run's recomputed accounts' placeholder (0080)
            -- and the changes since a store, appended by the owner's triggers, pruned by the run that stores (0053)
            ('report_history_change', 'SELECT, DELETE'),
            -- and the month history's row part, stored with the span set (0054)
            ('report_stored_month_history', 'SELECT, INSERT, DELETE'),
            -- and grace_hold_recovery's failure episodes, stored with the span set, and the run's placeholder (0055)
            ('report_stored_grace_episode', 'SELECT, INSERT, DELETE'),
            ('report_grace_episode_run', 'SELECT'),
            -- and refunds' paid counts' row part, stored with the span set, and the run's placeholder (0056)
            ('report_stored_paid_count', 'SELECT, INSERT, DELETE'),
            ('report_paid_count_run', 'SELECT'),
            -- and price_change_churn's per-subscription facts, stored with the span set, and the run's placeholders (0059)
            ('report_stored_price_change_notice', 'SELECT, INSERT, DELETE'),
            ('report_stored_price_change_member', 'SELECT, INSERT, DELETE'),
            ('report_stored_price_change_peer', 'SELECT, INSERT, DELETE'),
            ('report_price_change_notice_run', 'SELECT'),
            ('report_price_change_member_run', 'SELECT'),
            ('report_price_change_peer_run', 'SELECT'),
            -- and refunds' per-refund facts, stored with the span set, and the run's placeholder (0064)
            ('report_stored_refund_fact', 'SELECT, INSERT, DELETE'),
            ('report_refund_fact_run', 'SELECT'),
            -- and cohorts' first charges per subscription, stored with the span set, and the run's placeholder (0065)
            ('report_stored_first_charge', 'SELECT, INSERT, DELETE'),
            ('report_first_charge_run', 'SELECT'),
            -- and plan_change_mix's plan changes per subscription, stored with the span set, and the run's placeholder (0069)
            ('report_stored_plan_change', 'SELECT, INSERT, DELETE'),
            ('report_plan_change_run', 'SELECT'),
            -- kpis' money rows handed over by the second session: the run's placeholder (0066)
            ('report_kpi_money_run', 'SELECT'),
            -- the cells a report stored as cells reuses, handed to its query (0060)
            ('report_reused_cell_run', 'SELECT'),
            -- their partitions per basis (0037): written through the parents; a --full run empties a basis's and
            -- rebuilds its index through the owner's two functions (0039, granted below), never directly
            ('report_stored_span_input_corrected', 'SELECT'),
            ('report_stored_span_input_known', 'SELECT'),
            ('report_stored_span_corrected', 'SELECT'),
            ('report_stored_span_known', 'SELECT'),
            -- append-only trails
            ('audit_log', 'SELECT, INSERT'),
            ('drift_event', 'SELECT, INSERT'),
            ('store_query', 'SELECT, INSERT'),
            ('reconciliation_item', 'SELECT, INSERT'),
            ('period_lock', 'SELECT, INSERT'),
            ('period_snapshot', 'SELECT, INSERT'),
            -- appended, then one column set by its writer
            ('period_close', 'SELECT, INSERT, UPDATE (reopened_at, reopen_reason)'),
            ('reconciliation_run', 'SELECT, INSERT, UPDATE (superseded_by)'),
            ('report_file', 'SELECT, INSERT, UPDATE (replaced_by)'),
            -- a staged file's bytes, kept under their hash (written once; deleted only with the last file naming them)
            ('report_file_content', 'SELECT, INSERT'),
            ('fx_rate', 'SELECT, INSERT, UPDATE (rate)'),
            -- staged store report rows: a replaced report's rows are deleted with it
            ('apple_financial_row', 'SELECT, INSERT, DELETE'),
            ('apple_payments_row', 'SELECT, INSERT, DELETE'),
            ('apple_sales_summary_row', 'SELECT, INSERT, DELETE'),
            ('apple_subscriber_row', 'SELECT, INSERT, DELETE'),
            ('apple_subscription_row', 'SELECT, INSERT, DELETE'),
            ('apple_subscription_event_row', 'SELECT, INSERT, DELETE'),
            ('google_earnings_fact', 'SELECT, INSERT, DELETE'),
            -- the rows of Google earnings files staged before migration 0033: their audit trail, read only
            ('google_earnings_row_before_0033', 'SELECT'),
            ('google_estimated_sales_row', 'SELECT, INSERT, DELETE'),
            -- the jobs' own state
            ('job_run', 'SELECT, INSERT, UPDATE'),
            ('rate_limit_bucket', 'SELECT, INSERT, UPDATE'),
            ('requery_work_item', 'SELECT, INSERT, UPDATE'),
            ('reconciliation_repair', 'SELECT, INSERT, UPDATE'),
            -- the projection: written by the repair jobs; the history rows are never deleted except by retention
            ('apple_subscription_identity', 'SELECT, INSERT, UPDATE'),
            ('google_purchase_token', 'SELECT, INSERT, UPDATE'),
            ('entitlement_interval', 'SELECT, INSERT, UPDATE'),
            ('subscription_price_change_transition', 'SELECT, INSERT, UPDATE'),
            -- retention deletes test and sandbox purchases (with their rows) and expired keys
            ('subscription', 'SELECT, INSERT, UPDATE, DELETE'),
            ('entitlement', 'SELECT, INSERT, UPDATE, DELETE'),
            ('subscription_price_change', 'SELECT, INSERT, UPDATE, DELETE'),
            ('billing_transaction', 'SELECT, INSERT, UPDATE, DELETE'),
            ('inbound_webhook_event', 'SELECT, INSERT, UPDATE, DELETE'),
            ('dead_letter', 'SELECT, INSERT, UPDATE, DELETE'),
            ('idempotency_key', 'SELECT, DELETE')
        ) AS g (table_name, privileges)
        WHERE to_regclass('public.' || quote_ident(g.table_name)) IS NOT NULL
    LOOP
        EXECUTE format('GRANT %s ON TABLE public.%I TO iap_job', entry.privileges, entry.table_name);
    END LOOP;
    -- The only functions that run with the owner's rights (SECURITY DEFINER; their EXECUTE is revoked from PUBLIC by
    -- their migration): build-reports' replacement of a basis's stored spans (migration 0039) and import-exports'
    -- statistics of the staged Google earnings facts (migration 0045).
    IF to_regprocedure('public.report_stored_span_empty(text)') IS NOT NULL THEN
        GRANT EXECUTE ON FUNCTION public.report_stored_span_empty(text), public.report_stored_span_index(text) TO iap_job;
    END IF;
    IF to_regprocedure('public.google_earnings_fact_analyze()') IS NOT NULL THEN
        GRANT EXECUTE ON FUNCTION public.google_earnings_fact_analyze() TO iap_job;
    END IF;
END
$grants$;
