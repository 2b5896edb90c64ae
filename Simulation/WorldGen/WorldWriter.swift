import Foundation
import Postgres
import StoreTruth

/// Writes a world: the truth folder (`StoreTruthFolder`), the database (COPY), the store report files and `manifest.json`.
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
    /// rows in memory), `manifest.json` (with the report discrepancies) and the expected metrics with
    /// `fx_rates.csv` beside it. Returns the reports written.
    @discardableResult
    public static func writeFiles(_ world: GeneratedWorld, to folder: URL,
                                  reportShares: ReportDiscrepancyShares = .standard) throws -> StoreReportSet? {
        try StoreTruthFolder.write(world.truth, to: folder)
        var manifest = world.manifest
        let reports = world.subscriptions.isEmpty ? nil : try StoreReports.write(world, to: folder, shares: reportShares)
        manifest.reportDiscrepancies = reports?.discrepancies
        try manifest.encoded().write(to: folder.appendingPathComponent("manifest.json"))
        try expectedMetrics(world).write(to: folder)
        return reports
    }

    /// The expected metrics of an in-memory world, from its stories.
    /// `excluding`: subscription ids left out (e.g. those whose injected fault the nightly chain cannot reach, when the
    /// metrics are compared with a rebuild from the database).
    public static func expectedMetrics(_ world: GeneratedWorld, excluding: Set<String> = []) -> ExpectedMetrics {
        var builder = ExpectedMetricsBuilder.forWorld(world.options, catalogue: world.catalogue)
        for subscription in world.subscriptions where !excluding.contains(subscription.rows.subscriptionId) {
            builder.add(subscription)
        }
        return builder.finish(seed: world.options.seed)
    }

    /// Loads catalogue, accounts and every subscription's rows with COPY, in one transaction.
    public static func load(_ world: GeneratedWorld, into database: PostgresConnection) throws {
        try database.transaction { db in
            let loader = DatabaseLoader(database: db)
            try loader.loadCatalogue(world.catalogue, ids: WorldIdentifiers(seed: world.options.seed),
                                     atMs: catalogueMs(world.options))
            try loader.loadRates(ExpectedMetricsBuilder.forWorld(world.options, catalogue: world.catalogue).fx)
            try loader.load(world.subscriptions)
        }
    }

    /// Generates and loads a large world in batches (generation of the next batch overlaps the COPY of the
    /// previous one), streaming the truth folder and building the store reports as it goes; then writes the
    /// reports and the manifest. Files and database equal what `write` gives for `World.generate(options)`.
    public static func generateAndLoad(_ options: WorldOptions, to folder: URL, database: PostgresConnection,
                                       batchSize: Int = 25_000, reportShares: ReportDiscrepancyShares = .standard,
                                       progress: (Int) -> Void = { _ in }) throws -> WorldManifest {
        try BatchedWorldWriter(options: options, folder: folder, database: database, reportShares: reportShares)
            .run(batchSize: max(batchSize, 1), progress: progress)
    }

    static func catalogueMs(_ options: WorldOptions) -> Int64 {
        WorldClock.addMonths(WorldClock.ms(options.asOf), -Int64(options.months) - 1)
    }
}
