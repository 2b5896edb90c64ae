-- refunds reads the refund rows alone (issue 31; Reports/README.md, "Refunds"): the refunds, chargebacks and family
-- revocations, ≈ 1.5 % of the history, found by a scan of every row (2.4 s of its 4.8–5.0 s at 1M subscriptions once
-- its paid counts were stored, migration 0056; a night runs it whole, it stores no months). This partial index holds
-- those rows alone, so the file reads them through it (3.0–3.3 s, the same rows); writing it costs nothing for the
-- other rows. Built in the migration's transaction, like 0048's: writers of billing_transaction wait for it (1.2–1.5 s
-- at 7.4M rows, Benchmarks/results.md, "Stored paid counts").
CREATE INDEX billing_transaction_refund_idx ON billing_transaction (subscription_id) WHERE refund_kind IS NOT NULL;
COMMENT ON INDEX billing_transaction_refund_idx IS
    'The refund, chargeback and family-revocation rows, for refunds'' refund rows (migration 0058).';
