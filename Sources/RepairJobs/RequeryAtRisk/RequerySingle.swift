import BillingCore
import Foundation
import JobKit
import Postgres
import StoreAccess

extension RequeryAtRisk {
    /// The CS "re-verify" action: re-queries one subscription named by uuid, originalTransactionId or purchase token.
    static func single(_ run: RequeryRun, identifier: String) throws -> [String: Int] {
        let matches = try run.database.query("""
            SELECT id::text AS id FROM subscription WHERE id = $2::uuid
            UNION SELECT subscription_id::text FROM apple_subscription_identity WHERE original_transaction_id = $1
            UNION SELECT subscription_id::text FROM google_purchase_token WHERE purchase_token = $1
            """, [identifier, UUID(uuidString: identifier)]).rows.map { try $0.decode(String.self, "id") }
        guard let subscriptionId = matches.first, matches.count == 1 else {
            throw JobError.usage(matches.isEmpty ? "no subscription has id, originalTransactionId or purchase token '\(Redaction.mask(identifier))'"
                                                 : "'\(Redaction.mask(identifier))' names \(matches.count) subscriptions")
        }
        let tally = RequeryTally()
        tally.add("selected")
        if run.dryRun {
            run.logger.info("would re-query subscription \(subscriptionId)")
            return tally.counts
        }
        let recorder = StoreQueryRecorder(database: run.database, jobRunID: run.jobRunID)
        let stores = try run.stores(run.environment, run.database.configuration, AttemptContext.observer)
        let processor = RequeryItemProcessor(database: run.database, jobRunID: run.jobRunID, stores: stores, asOf: run.options.asOf)
        let outcome = AttemptContext.$recorder.withValue(recorder) { processor.process(subscriptionId: subscriptionId) }
        try recorder.flush()
        for (outcome, count) in recorder.outcomes where outcome == "rate_limited" { tally.add("rate_limited_429", count) }
        switch outcome {
        case .projected(let drift):
            tally.add("queried")
            if !drift.isEmpty { tally.add("repaired") }
            for kind in drift { tally.add("drift." + kind) }
        case .tokenGone:
            tally.add("queried")
            tally.add("token_gone")
        case .failed(let failure):
            tally.add("failed")
            throw JobError.failed(failure.description)
        case .budgetExhausted(let reason):
            tally.add("failed")
            throw JobError.failed(reason)
        }
        return tally.counts
    }
}
