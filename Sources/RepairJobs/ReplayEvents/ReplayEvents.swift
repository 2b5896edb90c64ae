import Foundation
import JobKit
import Postgres
import ProjectionStore
import StoreAccess

/// The `replay-events` job: replays stored webhooks that were never processed or failed, oldest first; after
/// `--max-attempts` failures an event goes to `dead_letter` and is not retried.
public enum ReplayEvents {
    /// The default cap when `--limit` is not given.
    public static let defaultLimit = 10_000
    /// The default number of failed attempts before an event is dead-lettered.
    public static let defaultMaxAttempts = 5

    /// The job's own options.
    public static let options: [JobOption] = [
        .value("max-attempts", placeholder: "n", help: "failed attempts before an event goes to dead_letter (default 5)"),
    ]

    /// The job definition; tests pass clients and a verifier pointed at the simulator.
    public static func definition(stores: @escaping StoreClientSet.Factory = StoreClientSet.fromEnvironment,
                                  verifier: @escaping AppleVerification.Factory = AppleVerification.fromEnvironment) -> JobDefinition {
        JobDefinition(name: "replay-events", summary: "replay unprocessed and failed webhooks through the projection, dead-lettering hopeless ones",
                      options: options) { context in
            let maxAttempts = try positive(context.arguments.values["max-attempts"], "max-attempts") ?? defaultMaxAttempts
            let events = try select(context.database, limit: context.limit ?? defaultLimit)
            context.setCount("selected", events.count)
            if context.dryRun {
                for event in events { context.count("would_replay." + event.provider.lowercased()) }
                return
            }
            let recorder = StoreQueryRecorder(database: context.database, jobRunID: context.runID)
            let processor = ReplayEventProcessor(
                database: context.database, writer: ProjectionWriter(database: context.database, jobRunID: context.runID),
                stores: try stores(context.environment, context.database.configuration, AttemptContext.observer),
                verifiers: try verifier(context.environment), asOf: context.asOf)
            for event in events {
                let outcome = AttemptContext.$recorder.withValue(recorder) { processor.process(event) }
                try recorder.flush()
                switch outcome {
                case .projected(let created):
                    context.count("projected")
                    if created { context.count("created") }
                case .skipped(let reason):
                    context.count("skipped")
                    try markProcessed(context.database, eventId: event.id, at: context.asOf)
                    context.logger.info("marked processed without projection", ["event": event.id, "reason": reason])
                case .gone(let failure):
                    context.count("gone")
                    _ = try markFailed(context.database, event: event, reason: failure.description, maxAttempts: 1)
                    context.count("dead_lettered")
                    context.logger.warning("token gone; dead-lettered", ["event": event.id, "reason": failure.description])
                case .failed(let failure):
                    FailedItems.count(context, failure)
                    if try markFailed(context.database, event: event, reason: failure.description, maxAttempts: maxAttempts) {
                        context.count("dead_lettered")
                    }
                    context.logger.warning("replay failed", ["event": event.id, "reason": failure.description])
                }
            }
            try FailedItems.breachIfAny(context)
        }
    }

    /// The SQL condition that the `inbound_webhook_event` row aliased `alias` is still to be projected by this job:
    /// unprocessed or failed, and not dead-lettered (expire-lapsed holds such a subscription back with the same test).
    static func awaitingReplay(_ alias: String) -> String {
        """
        (\(alias).processed_at IS NULL OR \(alias).processing_error IS NOT NULL)
          AND NOT EXISTS (SELECT 1 FROM dead_letter d WHERE d.source = 'inbound_webhook_event' AND d.source_id = \(alias).id::text
                          AND d.resolved_at IS NULL)
        """
    }

    /// Unprocessed or failed events not dead-lettered, oldest first.
    static func select(_ database: PostgresConnection, limit: Int) throws -> [InboundEvent] {
        try database.query("""
            SELECT \(InboundEvent.columns) FROM inbound_webhook_event e
            WHERE \(awaitingReplay("e"))
            ORDER BY e.received_at, e.id
            LIMIT $1
            """, [limit]).rows.map { try InboundEvent(row: $0) }
    }

    /// Marks an event processed (one more attempt, no error).
    static func markProcessed(_ database: PostgresConnection, eventId: String, at instant: Date) throws {
        _ = try database.execute("""
            UPDATE inbound_webhook_event SET processed_at = $2, processing_error = NULL, processing_attempts = processing_attempts + 1
            WHERE id = $1::uuid
            """, [eventId, instant])
    }

    /// Records a failed attempt; returns true when the event reached `maxAttempts` and went to `dead_letter`.
    static func markFailed(_ database: PostgresConnection, event: InboundEvent, reason: String, maxAttempts: Int) throws -> Bool {
        try database.retryingTransaction { db in
            let attempts = try db.query("""
                UPDATE inbound_webhook_event SET processing_error = $2, processing_attempts = processing_attempts + 1
                WHERE id = $1::uuid RETURNING processing_attempts
                """, [event.id, reason]).first?.decode(Int.self, "processing_attempts") ?? maxAttempts
            guard attempts >= maxAttempts else { return false }
            _ = try db.execute("""
                INSERT INTO dead_letter (source, source_id, reason, attempts, payload)
                VALUES ('inbound_webhook_event', $1, $2, $3, $4::jsonb)
                ON CONFLICT (source, source_id) DO UPDATE SET reason = EXCLUDED.reason, attempts = EXCLUDED.attempts, resolved_at = NULL
                """, [event.id, reason, attempts, event.payload])
            return true
        }
    }

    static func positive(_ text: String?, _ name: String) throws -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value >= 1 else { throw JobError.usage("--\(name) must be a whole number ≥ 1, not '\(text)'") }
        return value
    }
}
