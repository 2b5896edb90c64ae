import AppStore
import Foundation
import JobKit
import Postgres
import ProjectionStore
import StoreAccess

/// The `recover-notifications` job: reads Apple's Get Notification History over a window, stores the notifications
/// missing from `inbound_webhook_event` and projects them (re-querying the store, like replay-events).
public enum RecoverNotifications {
    /// The overlap with the previous successful run's window.
    public static let overlap: TimeInterval = 3_600
    /// How far back the sandbox history reaches (30 days, less a day: every page request repeats the window's start,
    /// and Apple checks it against its clock each time, so a long paging run must not cross the edge).
    static let sandboxReach: TimeInterval = 29 * 86_400

    /// The job's own options.
    public static let options: [JobOption] = [
        .value("since", placeholder: "instant", help: "window start (default: the last successful run's as-of minus 1 h, or 24 h back)"),
        .value("until", placeholder: "instant", help: "window end (default: --as-of)"),
    ]

    /// The job definition; tests pass clients and a verifier pointed at the simulator.
    public static func definition(stores: @escaping StoreClientSet.Factory = StoreClientSet.fromEnvironment,
                                  verifier: @escaping AppleVerification.Factory = AppleVerification.fromEnvironment) -> JobDefinition {
        JobDefinition(name: "recover-notifications", summary: "recover Apple notifications the server never stored, from Get Notification History",
                      options: options) { context in
            let until = try context.arguments.values["until"].map { try JobArguments.parseInstant($0, option: "until") } ?? context.asOf
            let since = try context.arguments.values["since"].map { try JobArguments.parseInstant($0, option: "since") }
                ?? defaultSince(context.database, asOf: context.asOf)
            guard since < until else { throw JobError.usage("--since must be before --until") }
            context.note("window", "\(PostgresTimestamp.iso8601(since))/\(PostgresTimestamp.iso8601(until))")
            let recorder = StoreQueryRecorder(database: context.database, jobRunID: context.runID)
            let clients = try stores(context.environment, context.database.configuration, AttemptContext.observer)
            guard let apple = clients.apple else { throw JobError.failed("Apple is not configured") }
            // A production app's sandbox purchases have their own history at the sandbox host, which reaches back 30 days.
            var windows = [(apple, since)]
            if let sandbox = clients.appleSandbox {
                let start = max(since, storeNow(after: until).addingTimeInterval(-sandboxReach))
                if start > since { context.note("sandbox_window", "starts \(PostgresTimestamp.iso8601(start)): Apple keeps 30 days of sandbox history") }
                windows.append((sandbox, start))
            }
            let processor = ReplayEventProcessor(
                database: context.database, writer: ProjectionWriter(database: context.database, jobRunID: context.runID),
                stores: clients, verifiers: try verifier(context.environment), asOf: context.asOf, recovered: true)
            // Pages are recovered as they arrive: when a later page fails after its retries, what earlier pages gave is
            // kept, the run fails, and the next run's window (from the last successful run) covers the rest again.
            // Progress is the window's hours covered (the newest notification's signedDate), over every window.
            let hours = windows.reduce(0) { $0 + max(0, Int(until.timeIntervalSince($1.1) / 3_600)) }
            let progress = context.progress("recovering notification history", unit: "hours of window", total: hours)
            defer { progress.finish() }
            var covered = 0
            var failures: [String] = []
            for (client, start) in windows where start < until {
                var reached = start
                do {
                    try AttemptContext.$recorder.withValue(recorder) {
                        try client.notificationHistory(NotificationHistoryRequest(start: start, end: until)) { page in
                            if !context.dryRun { try recorder.flush() }
                            context.count("history", by: page.count)
                            for entry in page {
                                try recover(entry, context: context, processor: processor, recorder: recorder)
                                if let signed = entry.notification.signedDate?.date, signed > reached { reached = min(signed, until) }
                                progress.update(done: covered + Int(reached.timeIntervalSince(start) / 3_600))
                            }
                        }
                    }
                } catch {
                    failures.append("recovering Notification History (\(client.configuration.environment)) "
                        + "\(PostgresTimestamp.iso8601(start))…\(PostgresTimestamp.iso8601(until)) failed: \(error)")
                }
                if !context.dryRun { try recorder.flush() }
                covered += Int(until.timeIntervalSince(start) / 3_600)
                progress.update(done: covered)
            }
            if !failures.isEmpty { throw JobError.failed(failures.joined(separator: "; ")) }
            try FailedItems.breachIfAny(context)
        }
    }

    /// Stores and projects one history entry unless inbound_webhook_event already holds it. An entry stored but never
    /// attempted (a run killed between the insert and the projection) is projected now (`resumed`) instead of being
    /// left for replay-events, so a rerun of this job alone ends where an uninterrupted run ends.
    static func recover(_ entry: AppleNotificationEntry, context: JobContext, processor: ReplayEventProcessor,
                        recorder: StoreQueryRecorder) throws {
        guard let row = try RecoveredNotification(entry) else { context.count("unusable"); return }
        let event: InboundEvent
        switch try stored(context.database, uuid: row.uuid) {
        case .handled:
            context.count("already_stored")
            return
        case .neverAttempted(let pending):
            context.count("resumed")
            if context.dryRun { return }
            event = pending
        case .absent:
            context.count("missing")
            if context.dryRun { return }
            event = try insert(context.database, row, at: context.asOf)
        }
        let outcome = AttemptContext.$recorder.withValue(recorder) { processor.process(event) }
        try recorder.flush()
        switch outcome {
        case .projected:
            context.count("projected")
        case .skipped:
            context.count("skipped")
            try ReplayEvents.markProcessed(context.database, eventId: event.id, at: context.asOf)
        case .gone(let failure), .failed(let failure):
            FailedItems.count(context, failure)
            _ = try ReplayEvents.markFailed(context.database, event: event, reason: failure.description,
                                            maxAttempts: ReplayEvents.defaultMaxAttempts)
            context.logger.warning("recovered notification not projected; left for replay-events",
                                   ["event": event.id, "reason": failure.description])
        }
    }

    /// The last successful run's as-of minus the overlap, or 24 hours before `asOf` on the first run (a new
    /// installation backfills explicitly with `--since`: paging Apple's whole 180 days takes tens of minutes).
    static func defaultSince(_ database: PostgresConnection, asOf: Date) throws -> Date {
        let last = try JobRunHistory.lastSuccessfulAsOf("recover-notifications", in: database)
        return min(last.map { $0.addingTimeInterval(-overlap) } ?? asOf.addingTimeInterval(-86_400), asOf.addingTimeInterval(-overlap))
    }

    /// What inbound_webhook_event holds of one notification.
    enum StoredNotification {
        /// Nothing: the notification was missed.
        case absent
        /// Stored, never processed and never attempted.
        case neverAttempted(InboundEvent)
        /// Stored and processed, or attempted (a failed attempt is replay-events' to retry).
        case handled
    }

    /// The instant Apple measures its history's reach from: its own clock (now), or a later window end.
    static func storeNow(after instant: Date) -> Date { max(instant, Date()) }

    static func stored(_ database: PostgresConnection, uuid: String) throws -> StoredNotification {
        guard let row = try database.query("""
            SELECT \(InboundEvent.columns), (e.processed_at IS NULL AND e.processing_attempts = 0) AS never_attempted
            FROM inbound_webhook_event e WHERE e.provider = 'APPLE' AND e.provider_event_id = $1
            """, [uuid]).first else { return .absent }
        return try row.decode(Bool.self, "never_attempted") ? .neverAttempted(try InboundEvent(row: row)) : .handled
    }

    static func insert(_ database: PostgresConnection, _ row: RecoveredNotification, at instant: Date) throws -> InboundEvent {
        guard let inserted = try database.query("""
            INSERT INTO inbound_webhook_event AS e (provider, provider_event_id, environment, verified, payload, received_at, processing_attempts)
            VALUES ('APPLE', $1, $2, true, $3::jsonb, $4, 0)
            RETURNING \(InboundEvent.columns)
            """, [row.uuid, row.environment, row.payload, instant]).first else {
            throw ItemFailure("notification \(row.uuid): the insert returned no row")
        }
        return try InboundEvent(row: inserted)
    }
}
