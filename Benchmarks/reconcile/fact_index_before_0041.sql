-- google_earnings_fact as migration 0033 left it: its primary key (report_file_id, seq), no BRIN index (steps.sh variant).
DROP INDEX IF EXISTS google_earnings_fact_file_brin;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'google_earnings_fact_pkey') THEN
  ALTER TABLE google_earnings_fact ADD PRIMARY KEY (report_file_id, seq); END IF; END $$;
