-- Knowledge time is ours: `recorded_at` is the instant the row entered this database, whichever job wrote it and
-- whatever --as-of it ran with; the store's instant stays in effective_at (or `at`). The writers leave the column to
-- its default, the database clock at the insert. clock_timestamp(), not now(): close-period takes a SHARE lock on
-- billing_transaction before it reads its clock, so a row inserted after the close waited for that lock and carries a
-- later instant, even when its transaction began before the close (now() would be its transaction's start).
ALTER TABLE billing_transaction ALTER COLUMN recorded_at SET DEFAULT clock_timestamp();
ALTER TABLE entitlement_interval ALTER COLUMN recorded_at SET DEFAULT clock_timestamp();
ALTER TABLE subscription_price_change_transition ALTER COLUMN recorded_at SET DEFAULT clock_timestamp();

-- Rows written before this rule took recorded_at from the webhook's arrival or from the job's --as-of, both of which
-- can be earlier than the insert: a stored notification projected by replay-events after a close looked known before
-- the close. The rule for them: a row was not known before it was written, so recorded_at is raised to created_at
-- (the insert's transaction time) wherever it is earlier. Rows of closed periods are corrected too (only recorded_at
-- changes; the lock's trigger is lifted for this statement alone), and the count goes to audit_log. A corrected row of
-- a closed period that was inserted after the close becomes what it is: a prior-period adjustment of the next period.
ALTER TABLE billing_transaction DISABLE TRIGGER billing_transaction_closed_period_trg;
WITH raised AS (
    UPDATE billing_transaction SET recorded_at = created_at WHERE created_at > recorded_at RETURNING 1
)
INSERT INTO audit_log (actor, action, entity, entity_id, detail)
SELECT 'migrate', 'recorded_at_raised', 'billing_transaction', '0018', jsonb_build_object('rows', count(*))
FROM raised HAVING count(*) > 0;
ALTER TABLE billing_transaction ENABLE TRIGGER billing_transaction_closed_period_trg;
