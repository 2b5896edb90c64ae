import Foundation
import Postgres
import SeededRandom

/// Renders a world's store report files (Apple financial, payments summary and subscriber reports, Google earnings and
/// estimated sales zips) from its ledger, with injected discrepancies, and applies the database side.
///
/// "Missing in database" is realised by deleting the chosen billing_transaction rows after loading
/// (`applyToDatabase`); every other kind lives in the files only.
public enum StoreReports {
    /// The report files and discrepancies of `world` (deterministic in the world's seed and `shares`).
    public static func render(_ world: GeneratedWorld, shares: ReportDiscrepancyShares = .standard) throws -> StoreReportSet {
        var builder = StoreReportBuilder(catalogue: world.catalogue, seed: world.options.seed, asOfMs: WorldClock.ms(world.options.asOf),
                                         shares: shares)
        _ = try builder.add(world.subscriptions, notifications: world.truth.apple.notifications, voided: world.truth.google.voidedPurchases)
        return try builder.finish()
    }

    /// Renders and writes the reports under `folder/reports/`; returns the set (its discrepancies go into the manifest).
    @discardableResult
    public static func write(_ world: GeneratedWorld, to folder: URL, shares: ReportDiscrepancyShares = .standard) throws -> StoreReportSet {
        let reports = try render(world, shares: shares)
        try reports.write(to: folder.appendingPathComponent("reports"))
        return reports
    }

    /// Deletes the billing_transaction rows of every `missing_in_database` discrepancy; returns the rows deleted.
    @discardableResult
    public static func applyToDatabase(_ reports: StoreReportSet, database: PostgresConnection) throws -> Int {
        var deleted = 0
        for key in reports.keysMissingFromDatabase {
            deleted += try database.execute("DELETE FROM billing_transaction WHERE transaction_key = $1", [key])
        }
        return deleted
    }

    /// A stable 8-digit App Store Connect vendor number for `seed` (the first part of Apple report file names).
    public static func appleVendorNumber(seed: UInt64) -> String {
        String(SplitMix64.hash(seed ^ 0x5645_4E44_4F52) % 90_000_000 + 10_000_000)
    }

    /// A stable 19-digit Google developer account ID for `seed`.
    static func googleDeveloperId(seed: UInt64) -> String {
        String(SplitMix64.hash(seed ^ 0x4445_5649_44) % 9_000_000_000_000_000_000 + 1_000_000_000_000_000_000)
    }
}
