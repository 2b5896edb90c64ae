import Foundation
import Postgres
import StoreTruth

/// Writes a world: the truth folder (`StoreTruthFolder`), the database (COPY) and `manifest.json`.
public enum WorldWriter {
    /// Writes an in-memory world into `folder` and loads it into `database` (an empty, migrated schema);
    /// the rows of `missing_in_database` report discrepancies are then deleted.
    public static func write(_ world: GeneratedWorld, to folder: URL, database: PostgresConnection,
                             reportShares: ReportDiscrepancyShares = .standard) throws {
        let reports = try writeFiles(world, to: folder, reportShares: reportShares)
        try load(world, into: database)
        if let reports { try StoreReports.applyToDatabase(reports, database: database) }
    }

    /// Writes the truth folder, the store report files under `reports/` (only for a world that kept its
    /// rows in memory) and `manifest.json` (with the report discrepancies). Returns the reports written.
    @discardableResult
    public static func writeFiles(_ world: GeneratedWorld, to folder: URL,
                                  reportShares: ReportDiscrepancyShares = .standard) throws -> StoreReportSet? {
        try StoreTruthFolder.write(world.truth, to: folder)
        var manifest = world.manifest
        let reports = world.subscriptions.isEmpty ? nil : try StoreReports.write(world, to: folder, shares: reportShares)
        manifest.reportDiscrepancies = reports?.discrepancies
        try manifest.encoded().write(to: folder.appendingPathComponent("manifest.json"))
        return reports
    }

    /// Loads catalogue, accounts and every subscription's rows with COPY, in one transaction.
    public static func load(_ world: GeneratedWorld, into database: PostgresConnection) throws {
        try database.transaction { db in
            let loader = DatabaseLoader(database: db)
            try loader.loadCatalogue(world.catalogue, ids: WorldIdentifiers(seed: world.options.seed),
                                     atMs: WorldClock.addMonths(WorldClock.ms(world.options.asOf), -Int64(world.options.months) - 1))
            try loader.load(world.subscriptions)
        }
    }

    /// Generates and loads a large world in batches (generation of the next batch overlaps the COPY of
    /// the previous one), then writes the truth folder and manifest. Returns the manifest.
    public static func generateAndLoad(_ options: WorldOptions, to folder: URL, database: PostgresConnection,
                                       batchSize: Int = 50_000, progress: (Int) -> Void = { _ in }) throws -> WorldManifest {
        let generator = World.makeGenerator(options)
        let loader = DatabaseLoader(database: database)
        try loader.loadCatalogue(generator.catalogue, ids: generator.ids,
                                 atMs: WorldClock.addMonths(generator.asOfMs, -Int64(options.months) - 1))
        var rowCounts: [String: Int] = [:]
        var kept: [WorldSubscription] = []
        kept.reserveCapacity(options.subscriptions)
        var lower = 0
        var pending = try World.generateRange(options, 0..<min(batchSize, options.subscriptions))
        while lower < options.subscriptions {
            let upper = min(lower + batchSize, options.subscriptions)
            let nextUpper = min(upper + batchSize, options.subscriptions)
            let batch = pending
            let next = NextBatch()
            let thread = Thread {
                if upper < nextUpper { next.result = Result { try World.generateRange(options, upper..<nextUpper) } }
                next.done.signal()
            }
            thread.start()
            try loader.load(batch)
            next.done.wait()
            for subscription in batch {
                rowCounts["billing_transaction", default: 0] += subscription.rows.transactions.count
                rowCounts["inbound_webhook_event", default: 0] += subscription.rows.inbound.count
                rowCounts["subscription_price_change", default: 0] += subscription.rows.priceChanges.count
            }
            for var subscription in batch {
                subscription.rows = LedgerRows(subscriptionId: subscription.rows.subscriptionId)
                kept.append(subscription)
            }
            progress(upper)
            lower = upper
            if let result = next.result { pending = try result.get() }
        }
        let assembled = World.assemble(options, kept)
        var manifest = assembled.manifest
        manifest.counts.merge(rowCounts) { _, new in new }
        let world = GeneratedWorld(options: options, catalogue: assembled.catalogue, truth: assembled.truth, manifest: manifest,
                                   subscriptions: [])
        try writeFiles(world, to: folder)
        return manifest
    }
}

/// The next batch, generated on a helper thread.
final class NextBatch: @unchecked Sendable {
    var result: Result<[WorldSubscription], Error>?
    let done = DispatchSemaphore(value: 0)
}
