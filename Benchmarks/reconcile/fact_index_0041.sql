-- google_earnings_fact as the branch h29 round 5 proposed (not taken: the primary key stays, Benchmarks/results.md "Google month-end, round 5"): a BRIN index on report_file_id, no primary key (steps.sh variant).
ALTER TABLE google_earnings_fact DROP CONSTRAINT IF EXISTS google_earnings_fact_pkey;
CREATE INDEX IF NOT EXISTS google_earnings_fact_file_brin ON google_earnings_fact USING brin (report_file_id);
