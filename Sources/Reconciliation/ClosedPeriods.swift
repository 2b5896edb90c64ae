import Foundation
import Postgres

/// The closes in force: which report periods are locked, since when, on which files and with which items hash.
public struct ClosedPeriods {
    let database: PostgresConnection

    /// Creates a reader over `database`.
    public init(database: PostgresConnection) { self.database = database }

    /// A closed report period's basis.
    public struct Lock: Sendable {
        /// The close instant: rows recorded later are left out of the closed numbers.
        public var closedAt: Date
        /// The staging files the close compared.
        public var files: Set<Int64>
        /// SHA-256 of the closed items CSV.
        public var itemsSHA256: String
    }

    /// The lock of `period` when a close in force covers it.
    public func lock(for period: ReconciliationPeriod) throws -> Lock? {
        guard let row = try database.query("""
            SELECT c.closed_at, r.report_files::text AS files, r.content_sha256
            FROM period_lock l JOIN period_close c ON c.id = l.close_id JOIN reconciliation_run r ON r.id = l.run_id
            WHERE c.reopened_at IS NULL AND l.provider = $1::billing_provider AND l.report_period = $2
            """, [period.provider.databaseLabel, period.label]).first else { return nil }
        let json = try row.decode(String.self, "files")
        let entries = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]) ?? []
        let ids = Set(entries.compactMap { ($0["id"] as? NSNumber)?.int64Value })
        return Lock(closedAt: try row.decode(Date.self, "closed_at"), files: ids, itemsSHA256: try row.decode(String.self, "content_sha256"))
    }
}
