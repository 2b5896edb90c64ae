import Foundation

/// The store report files of a world (paths relative to the truth folder's `reports/`) and the
/// discrepancies injected into them.
public struct StoreReportSet: Sendable, Hashable {
    /// File bytes by path: `apple/finance/…`, `apple/sales/…`, `apple/payments/…`, `google/earnings/…`, `google/sales/…`.
    public var files: [String: [UInt8]]
    /// Every injected discrepancy, in ledger order.
    public var discrepancies: [ReportDiscrepancy]
    /// The Google developer account ID in earnings file names.
    public var googleDeveloperId: String
    /// The App Store Connect vendor number in Apple report file names.
    public var appleVendorNumber: String

    /// The transaction keys whose billing_transaction rows must be absent from the database.
    public var keysMissingFromDatabase: [String] {
        discrepancies.filter { $0.kind == .missingInDatabase }.map(\.transactionKey)
    }

    /// Writes every file under `folder` (the truth folder's `reports/`), creating directories.
    public func write(to folder: URL) throws {
        for path in files.keys.sorted() {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(files[path] ?? []).write(to: url)
        }
    }
}
