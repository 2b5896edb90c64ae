-- A --full build-reports run replaces its basis's stored spans whole (0037): it empties the basis's two partitions,
-- inserts the spans without the index and builds the index after (at 200k subscriptions, 2.5M spans: 3.8–4.6 s
-- against 6.2–7.4 s inserting through the index in subscription order). Emptying a table (TRUNCATE) can be granted,
-- but dropping and creating an index only its owner may do, and the jobs connect as `iap_job`, which owns nothing
-- (SQL/job_role_grants.sql). So the two steps that need the owner are these two functions, owned by the role that
-- migrates and run with its rights (SECURITY DEFINER), each doing one fixed thing to the named basis's partitions and
-- nothing else: the basis is checked against the two there are, the names are built from it with %I, and the search
-- path is fixed, so a caller cannot point them at another table. EXECUTE is revoked from PUBLIC here and granted to
-- `iap_job` only, by SQL/job_role_grants.sql.
CREATE FUNCTION report_stored_span_empty(basis text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    IF basis IS NULL OR basis NOT IN ('corrected', 'known') THEN
        RAISE EXCEPTION 'report_stored_span_empty: unknown basis %', coalesce(basis, 'NULL');
    END IF;
    EXECUTE format('TRUNCATE public.%I, public.%I', 'report_stored_span_input_' || basis, 'report_stored_span_' || basis);
    EXECUTE format('DROP INDEX IF EXISTS public.%I', 'report_stored_span_' || basis || '_subscription');
END
$$;
COMMENT ON FUNCTION report_stored_span_empty(text) IS
    'build-reports (--full): empties the basis''s stored spans and digests and drops the spans'' index, as the owner (migration 0039).';

CREATE FUNCTION report_stored_span_index(basis text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    IF basis IS NULL OR basis NOT IN ('corrected', 'known') THEN
        RAISE EXCEPTION 'report_stored_span_index: unknown basis %', coalesce(basis, 'NULL');
    END IF;
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON public.%I (subscription_id)',
                   'report_stored_span_' || basis || '_subscription', 'report_stored_span_' || basis);
END
$$;
COMMENT ON FUNCTION report_stored_span_index(text) IS
    'build-reports (--full): builds the basis''s stored spans'' index on subscription_id again, as the owner (migration 0039).';

REVOKE ALL ON FUNCTION report_stored_span_empty(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION report_stored_span_index(text) FROM PUBLIC;
