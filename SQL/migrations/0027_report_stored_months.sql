-- Incremental build-reports (issue 31): the rows a report returned for one complete month, kept so a later run whose
-- inputs for that month are unchanged reuses them instead of recomputing them (Reports/README.md, "Incremental
-- runs"). Only reports whose catalogue entry declares that a month's rows read nothing but the run's snapshots,
-- contributions and movements up to that month, fx_rate up to that month and plan are stored; the key is what else
-- the rows depend on (report, basis, reporting currency, month) and each entry carries the SHA-256 of the SQL that
-- computed it and the digest of its inputs (report_month_inputs below). An entry is reused only when both are equal
-- now; anything else recomputes the month and replaces the entry. A cache: deleting its rows only costs a full run.

-- One entry per report, basis, reporting currency and complete month.
CREATE TABLE report_stored_month (
    report          text NOT NULL,
    basis           text NOT NULL CHECK (basis IN ('corrected', 'known')),
    currency        text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    month           text NOT NULL CHECK (month ~ '^[0-9]{4}-[0-9]{2}$'),
    sql_sha256      char(64) NOT NULL,
    -- report_month_inputs(...).inputs for this month when the rows were computed.
    inputs          text NOT NULL,
    -- The report's column names, in order.
    columns         text[] NOT NULL,
    row_count       integer NOT NULL CHECK (row_count >= 0),
    computed_as_of  timestamptz NOT NULL,
    stored_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (report, basis, currency, month)
);
COMMENT ON TABLE report_stored_month IS
    'build-reports: a complete month''s report rows, reused while its inputs digest and SQL are unchanged (migration 0027).';

-- The rows of an entry, in the report's order: cells as the server's text (JSON null for NULL).
CREATE TABLE report_stored_row (
    report          text NOT NULL,
    basis           text NOT NULL,
    currency        text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    month           text NOT NULL,
    ordinal         integer NOT NULL,
    cells           jsonb NOT NULL CHECK (jsonb_typeof(cells) = 'array'),
    PRIMARY KEY (report, basis, currency, month, ordinal),
    FOREIGN KEY (report, basis, currency, month) REFERENCES report_stored_month ON DELETE CASCADE
);
COMMENT ON TABLE report_stored_row IS 'build-reports: the rows of one report_stored_month entry (migration 0027).';

-- What a month's rows of those reports read, as one digest per month: the snapshots up to the month (their instants,
-- so a month computed while it was the partial as-of month never matches its complete self), per snapshot the count
-- and 64-bit hash sum of its contribution rows (every column: subscription, account, currency, country, product, plan,
-- period, value), every fx_rate row of a month up to it, and the plan table; cumulative, so a change at any earlier
-- snapshot changes every later month's digest. The movements are computed from the contributions, so they are covered.
-- Read in build-reports' snapshot after the run's tables are filled (report_run_* read them).
CREATE FUNCTION report_month_inputs(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (month text, inputs text)
LANGUAGE sql STABLE AS $fn$
WITH snapshot AS (
    SELECT s.n, s.month, s.month_start, s.at FROM report_run_snapshot($1, $2, $3, $4) s
),
contribution AS (
    SELECT c.n, count(*) AS row_count, sum(hashtextextended(c::text, 0)) AS hash_sum
    FROM report_run_contribution($1, $2, $3, $4) c
    GROUP BY c.n
),
rate AS (
    SELECT f.month, count(*) AS row_count, sum(hashtextextended(f::text, 0)) AS hash_sum FROM fx_rate f GROUP BY f.month
),
plans AS (
    SELECT count(*) || ':' || COALESCE(sum(hashtextextended(p::text, 0)), 0) AS digest FROM plan p
)
SELECT s.month,
       md5(concat_ws('|', string_agg(s.at::text, ',') OVER w, sum(c.row_count) OVER w, sum(c.hash_sum) OVER w,
                     (SELECT count(*) || ':' || COALESCE(sum(r.row_count), 0) || ':' || COALESCE(sum(r.hash_sum), 0)
                      FROM rate r WHERE r.month <= s.month_start),
                     (SELECT p.digest FROM plans p)))
FROM snapshot s LEFT JOIN contribution c ON c.n = s.n
WINDOW w AS (ORDER BY s.n)
$fn$;

COMMENT ON FUNCTION report_month_inputs(timestamptz, timestamptz, timestamptz, text) IS
    'Per snapshot month, a digest of everything the month-end reports read up to it; build-reports reuses stored rows while it is unchanged (migration 0027).';
