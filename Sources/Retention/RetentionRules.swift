/// The retention rules, in the order they run (docs/RUNBOOK.md, "Retention").
///
/// 1. Sandbox and test purchases (`is_sandbox` or `is_test_purchase`) whose last store activity (the later of the
///    period end and the newest store state) is older than the sandbox cutoff, unless a closed period holds one of
///    their charges: their inbound events (sandbox environment, or a Google event naming one of their tokens), the
///    dead letters of those events, their billing transactions, the entitlements they are the source of, and the
///    subscriptions (their price changes are deleted first; identities, tokens, history intervals and drift rows go with them by cascade).
///    Any other inbound event from the sandbox environment older than the cutoff goes too, unless a kept billing
///    transaction names it (its `inbound_event_id` would change).
/// 2. Idempotency keys past their `expires_at`.
/// 3. Raw payloads older than the payload cutoff: in billing_transaction.raw_payload and in processed inbound
///    events' payload, every compact JWS, `purchaseToken` / `linkedPurchaseToken` value and Pub/Sub `message.data`
///    is replaced by a marker. The normalised columns stay as they are; unprocessed or failed events keep their
///    payload (replay-events still needs it).
enum RetentionRules {
    /// Creates `pg_temp.retention_redact(jsonb)`, the redaction the payload rules apply (dropped with the session).
    static let redactFunction = #"""
        CREATE OR REPLACE FUNCTION pg_temp.retention_redact(p jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $f$
          SELECT CASE WHEN jsonb_typeof(r -> 'message') = 'object' AND (r -> 'message') ? 'data'
                      THEN jsonb_set(r, '{message,data}', '"[redacted]"') ELSE r END
          FROM (SELECT regexp_replace(
                         regexp_replace(p::text, 'eyJ[A-Za-z0-9_=-]+\.[A-Za-z0-9_=-]+\.[A-Za-z0-9_=-]*', '[redacted-jws]', 'g'),
                         '"(purchaseToken|linkedPurchaseToken)": "[^"]*"', '"\1": "[redacted]"', 'g')::jsonb AS r) x
        $f$
        """#

    /// The test subscriptions past the sandbox cutoff that no closed period protects (a CTE body).
    static func doomed(_ guardQuery: RetentionGuard) -> String {
        """
        SELECT s.id FROM subscription s
        WHERE (s.is_sandbox OR s.is_test_purchase)
          AND greatest(s.current_period_end_at, s.last_store_state_at, s.created_at) < [sandbox_cutoff]
          AND NOT EXISTS (SELECT 1 FROM billing_transaction b JOIN (\(guardQuery.protectedPeriods)) p
                            ON b.effective_at >= p.start_at AND b.effective_at < p.end_at
                          WHERE b.subscription_id = s.id)
        """
    }

    /// Every rule, in order.
    static func all(_ guardQuery: RetentionGuard) -> [RetentionRule] {
        let doomed = doomed(guardQuery)
        return [
            RetentionRule(action: "delete", entity: "inbound_webhook_event", counts: ["deleted_sandbox_events", "deleted_dead_letters"], sql: """
                WITH doomed AS (\(doomed)),
                tokens AS (SELECT g.purchase_token FROM google_purchase_token g JOIN doomed d ON d.id = g.subscription_id),
                gone AS (
                  DELETE FROM inbound_webhook_event w
                  WHERE w.received_at < [sandbox_cutoff]
                    AND (w.environment = 'SANDBOX'
                         OR (w.provider = 'GOOGLE' AND split_part(w.provider_business_key, ':', 1) IN (SELECT purchase_token FROM tokens)))
                    AND NOT EXISTS (SELECT 1 FROM billing_transaction b WHERE b.inbound_event_id = w.id
                                      AND b.subscription_id NOT IN (SELECT id FROM doomed))
                  RETURNING w.id::text AS id),
                letters AS (
                  DELETE FROM dead_letter l WHERE l.source = 'inbound_webhook_event' AND l.source_id IN (SELECT id FROM gone) RETURNING 1)
                SELECT (SELECT count(*) FROM gone)::int AS deleted_sandbox_events, (SELECT count(*) FROM letters)::int AS deleted_dead_letters
                """),
            RetentionRule(action: "delete", entity: "billing_transaction", counts: ["deleted_sandbox_transactions"], sql: """
                WITH doomed AS (\(doomed)),
                gone AS (DELETE FROM billing_transaction b USING doomed d WHERE b.subscription_id = d.id RETURNING 1)
                SELECT count(*)::int AS deleted_sandbox_transactions FROM gone
                """),
            RetentionRule(action: "delete", entity: "entitlement", counts: ["deleted_sandbox_entitlements"], sql: """
                WITH doomed AS (\(doomed)),
                gone AS (DELETE FROM entitlement e USING doomed d WHERE e.source_subscription_id = d.id RETURNING 1)
                SELECT count(*)::int AS deleted_sandbox_entitlements FROM gone
                """),
            // Price changes are money facts a subscription deletion may not cascade into (RESTRICT): deleted by name,
            // with their state transitions (which cascade from the change).
            RetentionRule(action: "delete", entity: "subscription_price_change", counts: ["deleted_sandbox_price_changes"], sql: """
                WITH doomed AS (\(doomed)),
                gone AS (DELETE FROM subscription_price_change c USING doomed d WHERE c.subscription_id = d.id RETURNING 1)
                SELECT count(*)::int AS deleted_sandbox_price_changes FROM gone
                """),
            RetentionRule(action: "delete", entity: "subscription", counts: ["deleted_sandbox_subscriptions"], sql: """
                WITH doomed AS (\(doomed)),
                gone AS (DELETE FROM subscription s USING doomed d WHERE s.id = d.id RETURNING 1)
                SELECT count(*)::int AS deleted_sandbox_subscriptions FROM gone
                """),
            RetentionRule(action: "expire", entity: "idempotency_key", counts: ["expired_idempotency_keys"], sql: """
                WITH gone AS (DELETE FROM idempotency_key k WHERE k.expires_at < [as_of] RETURNING 1)
                SELECT count(*)::int AS expired_idempotency_keys FROM gone
                """),
            RetentionRule(action: "redact", entity: "billing_transaction", counts: ["redacted_transaction_payloads"], sql: """
                WITH changed AS (
                  UPDATE billing_transaction b SET raw_payload = pg_temp.retention_redact(b.raw_payload)
                  WHERE b.effective_at < [payload_cutoff]
                    AND pg_temp.retention_redact(b.raw_payload) IS DISTINCT FROM b.raw_payload
                  RETURNING 1)
                SELECT count(*)::int AS redacted_transaction_payloads FROM changed
                """),
            RetentionRule(action: "redact", entity: "inbound_webhook_event", counts: ["redacted_event_payloads"], sql: """
                WITH changed AS (
                  UPDATE inbound_webhook_event w SET payload = pg_temp.retention_redact(w.payload)
                  WHERE w.received_at < [payload_cutoff] AND w.processed_at IS NOT NULL AND w.processing_error IS NULL
                    AND NOT EXISTS (SELECT 1 FROM dead_letter l WHERE l.source = 'inbound_webhook_event' AND l.source_id = w.id::text)
                    AND pg_temp.retention_redact(w.payload) IS DISTINCT FROM w.payload
                  RETURNING 1)
                SELECT count(*)::int AS redacted_event_payloads FROM changed
                """),
        ]
    }
}
