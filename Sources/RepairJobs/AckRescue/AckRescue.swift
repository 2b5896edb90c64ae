import Foundation
import JobKit
import Postgres
import ProjectionStore
import StoreAccess

/// The `ack-rescue` job: Google purchases whose acknowledgement is PENDING in the database, nearest to the 3-day
/// deadline first. A purchase the store already acknowledged is projected (repairing the row); a paid purchase the
/// store holds pending is acknowledged, re-queried and projected; an unpaid (PENDING) purchase is never acknowledged.
public enum AckRescue {
    /// The default cap when `--limit` is not given.
    public static let defaultLimit = 10_000

    /// The job definition; tests pass clients pointed at the simulator.
    public static func definition(stores: @escaping StoreClientSet.Factory = StoreClientSet.fromEnvironment) -> JobDefinition {
        JobDefinition(name: "ack-rescue", summary: "acknowledge paid Google purchases still pending, nearest to the 3-day deadline first") { context in
            let candidates = try AckRescueCandidate.select(context.database, limit: context.limit ?? defaultLimit)
            context.setCount("selected", candidates.count)
            guard !candidates.isEmpty else { return }
            let recorder = StoreQueryRecorder(database: context.database, jobRunID: context.runID)
            let clients = try stores(context.environment, context.database.configuration, AttemptContext.observer)
            guard let google = clients.google else { throw JobError.failed("Google Play is not configured") }
            let processor = AckRescueProcessor(writer: ProjectionWriter(database: context.database, jobRunID: context.runID),
                                               google: google, asOf: context.asOf, dryRun: context.dryRun)
            for candidate in candidates {
                let outcome = AttemptContext.$recorder.withValue(recorder) { processor.process(candidate) }
                if !context.dryRun { try recorder.flush() }
                switch outcome {
                case .repaired: context.count("repaired")
                case .acknowledged: context.count("acknowledged")
                case .skippedUnpaid: context.count("skipped_unpaid")
                case .wouldRepair: context.count("would_repair")
                case .wouldAcknowledge: context.count("would_acknowledge")
                case .gone: context.count("gone")
                case .failed(let failure):
                    FailedItems.count(context, failure)
                    context.logger.warning("acknowledgement rescue failed", ["subscription": candidate.subscriptionId, "reason": failure.description])
                }
            }
            try FailedItems.breachIfAny(context)
        }
    }
}
