-- Test purchases count in no report (Reports/README.md, "Who counts"): a subscription with any history row `is_test`
-- is left out. Six report files ask that as `NOT EXISTS (… billing_transaction t WHERE t.subscription_id = s.id AND
-- t.is_test)` or `SELECT DISTINCT subscription_id … WHERE is_test`, and without an index each read the whole history
-- for the ~1 % of rows that are tests: ≈ 0.3 s per file at 200k subscriptions, ≈ 1.5–1.8 s at 1M (issue 31,
-- Benchmarks/results.md, "The deployed command line"). This partial index holds the test rows alone, so each file
-- reads a few thousand index entries instead; writing it costs nothing for the other 99 % of rows.
CREATE INDEX billing_transaction_test_idx ON billing_transaction (subscription_id) WHERE is_test;
COMMENT ON INDEX billing_transaction_test_idx IS
    'The subscriptions with a test history row, for the reports'' test-purchase exclusion (migration 0048).';
