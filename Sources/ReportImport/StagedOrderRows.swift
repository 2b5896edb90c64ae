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
        /// `report_file.id` and `file_name`.
        public let fileID: Int64
        public let fileName: String
        /// Whether the file's bytes are kept (a file staged before migration 0033 has its facts only).
        public let kept: Bool
        /// The order's rows, in file order (none when the bytes are not kept).
        public let rows: [GoogleEarningsRow]
    }

    /// The rows of `order` in every staged Google earnings file whose facts name it (current or replaced), by file id.
    public static func find(_ order: String, in database: PostgresConnection) throws -> [Found] {
        let files = try database.query("""
            SELECT f.id, f.file_name, f.content_sha256, f.kept_sha256 IS NOT NULL AS kept, encode(f.kept_sha256, 'hex') AS kept_hex
            FROM report_file f WHERE f.kind = 'googleEarnings'
              AND EXISTS (SELECT 1 FROM google_earnings_fact g WHERE g.report_file_id = f.id AND g.order_id = $1)
            ORDER BY f.id
            """, [order])
        return try files.rows.map { row in
            let id = try row.decode(Int64.self, "id"), name = try row.decode(String.self, "file_name")
            guard try row.decode(Bool.self, "kept") else { return Found(fileID: id, fileName: name, kept: false, rows: []) }
            let rows = try read(order, file: name, kept: try row.decode(String.self, "kept_hex"),
                                sha256: try row.decode(String.self, "content_sha256"), database)
            return Found(fileID: id, fileName: name, kept: true, rows: rows)
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
