import Foundation
import Postgres

/// Apple refunds and revocations that were stored and marked processed but left no trace in the history.
///
/// Projecting a REFUND or REVOKE notification writes the refunded transaction's refund row, keyed
/// `APPLE:{originalTransactionId}:{transactionId}:REFUNDED` (or `:REVOKED`), whichever path wrote it (the webhook,
/// a replay, or a re-query). A processed notification without that row was lost between the two: the customer keeps
/// access the store took back. Counted by subscription (originalTransactionId), up to the as-of instant.
enum RevocationCollector {
    static func collect(_ input: CollectorInput) throws -> [MetricFamily] {
        let samples = try GroupedCount.samples(input.database, """
            SELECT 'apple' AS provider,
                   count(DISTINCT w.payload -> 'transactionInfo' ->> 'originalTransactionId')::float8 AS n
            FROM inbound_webhook_event w
            WHERE w.provider = 'APPLE' AND w.processed_at IS NOT NULL AND w.processing_error IS NULL AND w.received_at <= $1
              AND w.payload -> 'notification' ->> 'notificationType' IN ('REFUND', 'REVOKE')
              AND NOT EXISTS (
                  SELECT 1 FROM billing_transaction b
                  WHERE b.transaction_key IN (
                      'APPLE:' || (w.payload -> 'transactionInfo' ->> 'originalTransactionId') || ':'
                          || (w.payload -> 'transactionInfo' ->> 'transactionId') || ':REFUNDED',
                      'APPLE:' || (w.payload -> 'transactionInfo' ->> 'originalTransactionId') || ':'
                          || (w.payload -> 'transactionInfo' ->> 'transactionId') || ':REVOKED'))
            """, [input.asOf], labels: ["provider"], expected: [["apple"]])
        return [MetricFamily(name: "iap_revocations_unapplied_subscriptions",
                             help: "Subscriptions with a processed Apple REFUND or REVOKE notification whose refund row is missing from the history (the revocation never reached the projection).",
                             samples: samples)]
    }
}
