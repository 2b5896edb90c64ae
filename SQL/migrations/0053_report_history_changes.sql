-- A night finds what changed from what changed, not from a digest of everything (issue 31; Reports/README.md,
-- "Changed since the last store").
--
-- A night recomputes the spans of the subscriptions whose span digest (`report_span_input`, 0031/0041) differs from
-- the stored one, and found them by digesting every subscription: one hash of every history row, 16 s of a 1M
-- night. What can make a digest differ is known without reading the rest: a history row inserted, updated or deleted,
-- a subscription's digested columns updated (both by transactions the store's run did not see), or a row whose
-- "read by then" flag flips because the as-of instant moved (effective, under basis 'known' also recorded, between
-- the two instants). So:
--   * every change to `billing_transaction`, and to the four digested columns of `subscription`, appends the changed
--     subscriptions to `report_history_change`, tagged with the writing transaction (`xid`), in that transaction
--     (statement triggers over the transition tables: one row per subscription and statement; a TRUNCATE appends a
--     row without a subscription, which means "everything");
--   * the store's span set remembers the as-of instant and the snapshot (`pg_current_snapshot()`) of the run that
--     stored it (`as_of`, `snapshot`; NULL: unknown, and the next run digests every subscription as before);
--   * `report_history_changed` returns the candidates: the log's rows of transactions that snapshot did not see, and
--     the rows whose flag the move from the stored as-of instant to the run's flips. A night digests only those and
--     compares them with the stored digests, so what it recomputes is what it did before; the others' digests are
--     the stored ones, which the store's run computed from what it saw.
-- A candidate's `from_at` is the earliest instant its change reaches (the earliest effective_at among the rows
-- changed, old and new versions; for a subscription whose digested columns changed, its first row's), for the
-- months a change can move. The log is pruned by the run that stores (rows every stored snapshot saw).

CREATE TABLE report_history_change (
    xid             xid8 NOT NULL DEFAULT pg_current_xact_id(),
    subscription_id uuid,
    from_at         timestamptz
);
CREATE INDEX report_history_change_xid ON report_history_change (xid);
COMMENT ON TABLE report_history_change IS
    'build-reports: the subscriptions whose history rows or digested columns a transaction (xid) changed, appended by triggers; a NULL subscription (a TRUNCATE) means every one (migration 0053).';

CREATE FUNCTION report_history_change_rows() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO public.report_history_change (subscription_id, from_at)
        SELECT n.subscription_id, min(n.effective_at) FROM new_rows n GROUP BY n.subscription_id;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO public.report_history_change (subscription_id, from_at)
        SELECT o.subscription_id, min(o.effective_at) FROM old_rows o GROUP BY o.subscription_id;
    ELSIF TG_OP = 'UPDATE' THEN
        -- Both versions of each row whose columns other than its raw payload changed (retention's redaction
        -- changes only the payload, which no report reads).
        INSERT INTO public.report_history_change (subscription_id, from_at)
        SELECT v.subscription_id, min(v.effective_at)
        FROM old_rows o JOIN new_rows n ON n.id = o.id
        CROSS JOIN LATERAL (VALUES (o.subscription_id, o.effective_at), (n.subscription_id, n.effective_at)) v(subscription_id, effective_at)
        WHERE to_jsonb(o) - 'raw_payload' IS DISTINCT FROM to_jsonb(n) - 'raw_payload'
        GROUP BY v.subscription_id;
    ELSE
        INSERT INTO public.report_history_change (subscription_id, from_at) VALUES (NULL, NULL);
    END IF;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION report_history_change_rows() IS
    'Trigger: appends the subscriptions of the billing_transaction rows a statement inserted, updated or deleted to report_history_change (a TRUNCATE: a row without a subscription), as the owner (migration 0053).';

CREATE TRIGGER report_history_change_insert AFTER INSERT ON billing_transaction
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_history_change_rows();
CREATE TRIGGER report_history_change_update AFTER UPDATE ON billing_transaction
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_history_change_rows();
CREATE TRIGGER report_history_change_delete AFTER DELETE ON billing_transaction
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_history_change_rows();
CREATE TRIGGER report_history_change_truncate AFTER TRUNCATE ON billing_transaction
    FOR EACH STATEMENT EXECUTE FUNCTION report_history_change_rows();

CREATE FUNCTION report_history_change_subscription() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    INSERT INTO public.report_history_change (subscription_id, from_at)
    SELECT DISTINCT v.id, NULL::timestamptz FROM (VALUES (OLD.id), (NEW.id)) v(id);
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION report_history_change_subscription() IS
    'Trigger: appends a subscription whose provider, billing account or test / sandbox flags changed to report_history_change (every row of it: from_at NULL), as the owner (migration 0053).';

-- Triggers fire without EXECUTE on their function: no role needs it.
REVOKE ALL ON FUNCTION report_history_change_rows() FROM PUBLIC;
REVOKE ALL ON FUNCTION report_history_change_subscription() FROM PUBLIC;

-- The columns the span digest and the month history read of a subscription; the repair jobs' frequent updates of
-- its status and verification instants append nothing.
CREATE TRIGGER report_history_change_subscription AFTER UPDATE ON subscription FOR EACH ROW
    WHEN ((OLD.id, OLD.provider, OLD.billing_account_id, OLD.is_test_purchase, OLD.is_sandbox)
          IS DISTINCT FROM (NEW.id, NEW.provider, NEW.billing_account_id, NEW.is_test_purchase, NEW.is_sandbox))
    EXECUTE FUNCTION report_history_change_subscription();

ALTER TABLE report_stored_span_set ADD COLUMN as_of timestamptz, ADD COLUMN snapshot pg_snapshot;
COMMENT ON COLUMN report_stored_span_set.as_of IS
    'build-reports: the as-of instant of the run whose store this is (NULL: unknown; the next run digests every subscription) (migration 0053).';
COMMENT ON COLUMN report_stored_span_set.snapshot IS
    'build-reports: the snapshot of the run whose store this is; report_history_change rows of transactions it did not see are the changes since (migration 0053).';

-- The candidates since a store: the subscriptions the log names for transactions `since` did not see, and those with
-- a row whose "read by then" flag differs between the instants `since_as_of` and `as_of` (effective between them;
-- under basis 'known' also recorded between them), with the earliest instant each change reaches (`from_at`: NULL for
-- a subscription whose columns changed, meaning its first row; a NULL subscription means every one). The rows between
-- the instants are found by the (provider, event type, effective_at) index, each of its leading pairs in turn.
CREATE FUNCTION report_history_changed(basis text, as_of timestamptz, since_as_of timestamptz, since pg_snapshot)
RETURNS TABLE (subscription_id uuid, from_at timestamptz)
LANGUAGE sql STABLE AS $fn$
SELECT c.subscription_id,
       COALESCE(c.from_at, (SELECT min(b.effective_at) FROM billing_transaction b WHERE b.subscription_id = c.subscription_id))
FROM report_history_change c
WHERE c.xid >= pg_snapshot_xmin($4) AND NOT pg_visible_in_snapshot(c.xid, $4)
UNION ALL
SELECT b.subscription_id, b.effective_at FROM billing_transaction b
WHERE b.provider = ANY (enum_range(NULL::billing_provider)) AND b.event_type = ANY (enum_range(NULL::billing_event_type))
  AND b.effective_at > least($2, $3) AND b.effective_at <= greatest($2, $3)
UNION ALL
SELECT b.subscription_id, b.effective_at FROM billing_transaction b
WHERE $1 = 'known' AND b.recorded_at > least($2, $3) AND b.recorded_at <= greatest($2, $3)
$fn$;
COMMENT ON FUNCTION report_history_changed(text, timestamptz, timestamptz, pg_snapshot) IS
    'The subscriptions whose history may read differently than it did to a run with snapshot $4 as of $3, for a run as of $2 under basis $1, with the earliest instant each change reaches (migration 0053).';
