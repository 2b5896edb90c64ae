import Foundation
import Postgres
import StoreExports

/// The audit trail of the Google earnings staging: the rows of one order, read back from the staged files' kept
/// bytes (`report_file_content`) through the importer's own streaming reader — what the per-row table used to show.
/// Each file is written to a private temporary file under its own name (the reader knows a zip from a CSV by it),
/// read once, its content hash checked against the one recorded at import, and removed.
public enum StagedOrderRows {
    /// One staged earnings file's rows of the order.
    public struct Found: Sendable {
        /// `report_file.id`.
        public let fileID: Int64
        /// `report_file.file_name`.
        public let fileName: String
        /// The order's rows in file order, each as `ShowOrder.header`'s columns after the file name.
        public let rows: [[String]]
    }

    /// The rows of `order` in every staged Google earnings file that holds it, by file id: the current files and the
    /// replaced ones whose facts name it, read from their kept bytes; a replaced file (its facts went with the
    /// replacement) from its kept bytes whenever they hold the order; a file staged before migration 0033 (no kept
    /// bytes) from the rows that migration kept, read-only, in `google_earnings_row_before_0033`.
    public static func find(_ order: String, in database: PostgresConnection) throws -> [Found] {
        let files = try database.query("""
            SELECT f.id, f.file_name, f.content_sha256, f.kept_sha256 IS NOT NULL AS kept,
                   coalesce(encode(f.kept_sha256, 'hex'), '') AS kept_hex
            FROM report_file f WHERE f.kind = 'googleEarnings'
              AND (EXISTS (SELECT 1 FROM google_earnings_fact g WHERE g.report_file_id = f.id AND g.order_id = $1)
                   OR (f.replaced_by IS NOT NULL AND f.kept_sha256 IS NOT NULL)
                   OR EXISTS (SELECT 1 FROM google_earnings_row_before_0033 r WHERE r.report_file_id = f.id AND r.order_id = $1))
            ORDER BY f.id
            """, [order])
        return try files.rows.compactMap { row in
            let id = try row.decode(Int64.self, "id"), name = try row.decode(String.self, "file_name")
            let rows = try row.decode(Bool.self, "kept")
                ? try read(order, file: name, kept: try row.decode(String.self, "kept_hex"),
                           sha256: try row.decode(String.self, "content_sha256"), database).map(ShowOrder.columns)
                : try keptBefore0033(order, file: id, database)
            return rows.isEmpty ? nil : Found(fileID: id, fileName: name, rows: rows)
        }
    }

    /// The rows of `order` that migration 0033 kept of the file `id` (staged before it, when each row was staged).
    private static func keptBefore0033(_ order: String, file id: Int64, _ database: PostgresConnection) throws -> [[String]] {
        let result = try database.query("""
            SELECT r.line::int8 AS line, extract(epoch FROM r.transaction_at)::int8 AS at, r.transaction_type,
                   coalesce(r.refund_type, '') AS refund_type, r.product_title, r.product_id, r.sku_id, r.buyer_country,
                   r.buyer_currency::text AS buyer_currency, r.amount_buyer_micros,
                   r.merchant_currency::text AS merchant_currency, r.amount_merchant_micros
            FROM google_earnings_row_before_0033 r WHERE r.report_file_id = $1 AND r.order_id = $2 ORDER BY r.line
            """, [id, order])
        return try result.rows.map { row in
            [String(try row.decode(Int64.self, "line")), order, StagingCopy.epochText(try row.decode(Int64.self, "at")),
             try row.decode(String.self, "transaction_type"), try row.decode(String.self, "refund_type"),
             try row.decode(String.self, "product_title"), try row.decode(String.self, "product_id"),
             try row.decode(String.self, "sku_id"), try row.decode(String.self, "buyer_country"),
             try row.decode(String.self, "buyer_currency"), String(try row.decode(Int64.self, "amount_buyer_micros")),
             try row.decode(String.self, "merchant_currency"), String(try row.decode(Int64.self, "amount_merchant_micros"))]
        }
    }

    /// The rows of `order` in the kept file `name` (bytes under `kept`, content hash `sha256`).
    private static func read(_ order: String, file name: String, kept: String, sha256: String,
                             _ database: PostgresConnection) throws -> [GoogleEarningsRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("staged-order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(ReportLoader.fileName(name)).path
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw StoreReportError(file: name, line: 1, column: 1, reason: "cannot write a temporary copy of the kept file")
        }
        var reader = BinaryCopyReader()
        do {
            _ = try database.copyOutMessages("""
                COPY (SELECT bytes FROM report_file_content WHERE sha256 = decode('\(kept)', 'hex') ORDER BY chunk)
                TO STDOUT (FORMAT binary)
                """) { message in
                guard try reader.read(message), let cell = reader.fields.first, let range = cell else { return }
                try handle.write(contentsOf: Data(UnsafeRawBufferPointer(rebasing: message[range])))
            }
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        let wanted = Array(order.utf8)
        var rows: [GoogleEarningsRow] = []
        let tally = try GoogleEarningsReading.read(path) { cells in
            if cells.text(.orderID).elementsEqual(wanted) { rows.append(cells.row()) }
        }
        guard tally.sha256 == sha256 else {
            throw StoreReportError(file: name, line: 1, column: 1, reason: "the kept bytes do not hash to the content imported "
                                   + "(\(tally.sha256), recorded \(sha256))")
        }
        return rows
    }
}
