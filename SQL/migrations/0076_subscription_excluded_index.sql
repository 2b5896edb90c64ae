-- The subscriptions the reports leave out (test or sandbox purchases) found by a small partial index (issue 31;
-- Reports/README.md, "The excluded subscriptions by index").
--
-- Several report functions start from that set (`report_month_history`'s excluded part, `report_paid_count_excluded`,
-- the refunds' excluded set): a scan of the whole `subscription` table for the 1% flagged, 0.13–0.22 s each at 1M
-- subscriptions, twice or more a night. The index holds only the flagged ones' ids, so the set is an
-- index-only scan of them (0.03 s); the writers keep it at the cost of the flagged rows only.
CREATE INDEX subscription_excluded ON subscription (id) WHERE is_test_purchase OR is_sandbox;
