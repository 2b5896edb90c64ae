import BillingCore
import Foundation
import GooglePlay
import JobKit
import Postgres
import ProjectionStore
import StoreAccess

/// The `sweep-voided` job: lists Google's voided purchases over a window and projects each one that belongs to a
/// subscription (refund and chargeback rows with voidedSource/voidedReason, entitlement revoked). The default window
/// starts an hour before the last successful run's as-of, at most 30 days back (30 days on the first run).
public enum SweepVoided {
    /// The overlap with the previous successful run's window.
    public static let overlap: TimeInterval = 3_600
    /// How far back voidedpurchases.list answers.
    public static let maximumWindow: TimeInterval = 30 * 86_400
    /// How far inside the 30-day limit the earliest start stays.
    public static let windowMargin: TimeInterval = 600

    /// The job's own options.
    public static let options: [JobOption] = [
        .value("since", placeholder: "instant", help: "window start (default: the last successful run's as-of minus 1 h; at most 30 days back)"),
    ]

    /// The job definition; tests pass clients pointed at the simulator.
    public static func definition(stores: @escaping StoreClientSet.Factory = StoreClientSet.fromEnvironment) -> JobDefinition {
        JobDefinition(name: "sweep-voided", summary: "apply Google's voided purchases (refunds, chargebacks) to their subscriptions",
                      options: options) { context in
            // Google refuses a startTime more than 30 days before *its* now; keep a margin for clock skew and latency.
            let earliest = context.asOf.addingTimeInterval(-maximumWindow + windowMargin)
            let requested = try context.arguments.values["since"].map { try JobArguments.parseInstant($0, option: "since") }
            let since = max(try requested ?? defaultSince(context.database, asOf: context.asOf), earliest)
            guard since < context.asOf else { throw JobError.usage("--since must be before --as-of") }
            context.note("window", "\(PostgresTimestamp.iso8601(since))/\(PostgresTimestamp.iso8601(context.asOf))")
            let recorder = StoreQueryRecorder(database: context.database, jobRunID: context.runID)
            let clients = try stores(context.environment, context.database.configuration, AttemptContext.observer)
            guard let google = clients.google else { throw JobError.failed("Google Play is not configured") }
            let voided: [VoidedPurchase]
            do {
                voided = try AttemptContext.$recorder.withValue(recorder) { try google.voidedPurchases(since: since, until: context.asOf) }
            } catch {
                if !context.dryRun { try recorder.flush() }
                throw JobError.failed("voidedpurchases.list since \(PostgresTimestamp.iso8601(since)) failed: \(error)")
            }
            if !context.dryRun { try recorder.flush() }
            context.setCount("listed", voided.count)
            let processor = SweepVoidedProcessor(database: context.database,
                                                 writer: ProjectionWriter(database: context.database, jobRunID: context.runID),
                                                 google: google, asOf: context.asOf, dryRun: context.dryRun)
            for item in voided {
                let outcome = AttemptContext.$recorder.withValue(recorder) { processor.process(item) }
                if !context.dryRun { try recorder.flush() }
                switch outcome {
                case .projected(let inserted):
                    context.count("projected")
                    if inserted > 0 {
                        context.count("applied")   // a void the database did not hold yet
                        context.count("inserted_transactions", by: inserted)
                    }
                case .unknownToken: context.count("unknown_token")
                case .wouldProject: context.count("would_project")
                case .failed(let failure):
                    FailedItems.count(context, failure)
                    context.logger.warning("voided purchase not applied", ["reason": failure.description])
                }
            }
            try FailedItems.breachIfAny(context)
        }
    }

    /// The last successful non-dry run's as-of minus the overlap, or 30 days before `asOf` on the first run.
    static func defaultSince(_ database: PostgresConnection, asOf: Date) throws -> Date {
        let last = try JobRunHistory.lastSuccessfulAsOf("sweep-voided", in: database)
        return min(last.map { $0.addingTimeInterval(-overlap) } ?? asOf.addingTimeInterval(-maximumWindow), asOf.addingTimeInterval(-overlap))
    }
}
