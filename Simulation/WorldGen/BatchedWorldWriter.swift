import Foundation
import Postgres
import StoreTruth

/// `WorldWriter.generateAndLoad`: generates batches on a helper thread while the main thread loads the
/// previous batch with COPY, streams its truth lines and feeds the report builder.
struct BatchedWorldWriter {
    let options: WorldOptions
    let folder: URL
    let database: PostgresConnection
    let reportShares: ReportDiscrepancyShares

    /// The tables a world loads into, in load order.
    static let tables = ["app_user", "billing_account", "subscription", "apple_subscription_identity", "google_purchase_token",
                         "inbound_webhook_event", "billing_transaction", "subscription_price_change", "subscription_price_change_transition",
                         "entitlement"]

    /// Generates and loads every batch in one transaction (foreign keys and secondary indexes deferred to its end),
    /// then writes the reports and the manifest.
    func run(batchSize: Int, progress: (Int) -> Void) throws -> WorldManifest {
        try database.transaction { db in
            let deferred = try DeferredConstraints.drop(Self.tables, database: db)
            let manifest = try load(into: db, batchSize: batchSize, progress: progress)
            try deferred.restore(database: db)
            return manifest
        }
    }

    private func load(into database: PostgresConnection, batchSize: Int, progress: (Int) -> Void) throws -> WorldManifest {
        let generator = World.makeGenerator(options)
        let loader = DatabaseLoader(database: database)
        try loader.loadCatalogue(generator.catalogue, ids: generator.ids, atMs: WorldWriter.catalogueMs(options))
        var expected = ExpectedMetricsBuilder.forWorld(options, catalogue: generator.catalogue)
        try loader.loadRates(expected.fx)
        let truth = try TruthStream(folder: folder, catalogue: generator.catalogue)
        var reports = StoreReportBuilder(catalogue: generator.catalogue, seed: options.seed, asOfMs: generator.asOfMs,
                                         shares: reportShares)
        let spill = try ReportSpill(folder: folder.appendingPathComponent(".report-rows"))
        reports.spill = spill
        var counts: [String: Int] = ["subscription": 0, "billing_transaction": 0, "inbound_webhook_event": 0,
                                     "subscription_price_change": 0]
        var faults: [InjectedFault] = []
        let options = options
        var lower = 0
        var pending = try Self.batch(options, 0..<min(batchSize, options.subscriptions))
        while lower < options.subscriptions {
            let upper = min(lower + batchSize, options.subscriptions)
            let nextUpper = min(upper + batchSize, options.subscriptions)
            let batch = pending
            let next = NextBatch()
            let thread = Thread {
                if upper < nextUpper { next.result = Result { try Self.batch(options, upper..<nextUpper) } }
                next.done.signal()
            }
            thread.start()
            let missing = try reports.add(batch: batch.subscriptions)
            try loader.load(batch.subscriptions, missing: missing)
            try truth.add(batch)
            for subscription in batch.subscriptions {
                counts["subscription", default: 0] += 1
                counts["billing_transaction", default: 0] += subscription.rows.transactions.count
                counts["inbound_webhook_event", default: 0] += subscription.rows.inbound.count
                counts["subscription_price_change", default: 0] += subscription.rows.priceChanges.count
                faults += subscription.faults
                expected.add(subscription)
            }
            next.done.wait()
            progress(upper)
            lower = upper
            if let result = next.result { pending = try result.get() }
        }
        try truth.finish()
        counts.merge(truth.counts) { _, new in new }
        let reportSet = try reports.finish()
        try spill.remove()
        try reportSet.write(to: folder.appendingPathComponent("reports"))
        var manifest = World.manifest(options, counts: counts, faults: faults)
        manifest.reportDiscrepancies = reportSet.discrepancies
        try manifest.encoded().write(to: folder.appendingPathComponent("manifest.json"))
        try expected.finish(seed: options.seed).write(to: folder)
        return manifest
    }

    /// Generates subscriptions `range` and encodes their truth lines.
    static func batch(_ options: WorldOptions, _ range: Range<Int>) throws -> TruthBatch {
        TruthBatch(try World.generateRange(options, range))
    }
}

/// The next batch, generated on a helper thread.
final class NextBatch: @unchecked Sendable {
    var result: Result<TruthBatch, Error>?
    let done = DispatchSemaphore(value: 0)
}
