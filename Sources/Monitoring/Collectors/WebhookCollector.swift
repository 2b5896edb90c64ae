import Foundation
import Postgres

/// Stored webhook events not yet processed, by provider, state and age; and unresolved dead letters.
///
/// `state="failed"`: processing was attempted and left an error; `state="unprocessed"`: never attempted (or attempted
/// without an error recorded). Age buckets run from `received_at` to the as-of instant.
enum WebhookCollector {
    static let states = ["unprocessed", "failed"]
    static let ages = ["under_1h", "1h_to_6h", "6h_to_24h", "over_24h"]

    static func collect(_ input: CollectorInput) throws -> [MetricFamily] {
        let events = try GroupedCount.samples(input.database, """
            SELECT lower(provider::text) AS provider,
                   CASE WHEN processing_error IS NULL THEN 'unprocessed' ELSE 'failed' END AS state,
                   CASE WHEN received_at > $1::timestamptz - interval '1 hour' THEN 'under_1h'
                        WHEN received_at > $1::timestamptz - interval '6 hours' THEN '1h_to_6h'
                        WHEN received_at > $1::timestamptz - interval '24 hours' THEN '6h_to_24h'
                        ELSE 'over_24h' END AS age,
                   count(*)::float8 AS n
            FROM inbound_webhook_event
            WHERE processed_at IS NULL AND received_at <= $1
            GROUP BY 1, 2, 3
            """, [input.asOf], labels: ["provider", "state", "age"], expected: GroupedCount.product(GroupedCount.providers, states, ages))
        let deadLetters = try GroupedCount.samples(input.database, """
            SELECT source, count(*)::float8 AS n FROM dead_letter
            WHERE resolved_at IS NULL AND created_at <= $1
            GROUP BY 1
            """, [input.asOf], labels: ["source"], expected: [["inbound_webhook_event"]])
        return [
            MetricFamily(name: "iap_inbound_webhook_events_pending",
                         help: "Stored store notifications not yet processed, by state (unprocessed or failed) and age since receipt.",
                         samples: events),
            MetricFamily(name: "iap_dead_letters",
                         help: "Unresolved dead letters (items the pipeline gave up on after repeated failures), by source table.",
                         samples: deadLetters),
        ]
    }
}
