import Crypto

/// One month of a report's rows as the store's digest reads them (`report_stored_month.rows_sha256`, migration 0047),
/// held in that encoding until the month ends: its columns first, then each row, every cell a NULL mark or a length
/// and its UTF-8 bytes, and an end mark per row, so no two different sequences of rows share the bytes. The SHA-256 of
/// the bytes is the month's digest; the rows are decoded back only when the month must be stored. Compact: about the
/// cells' bytes plus five per cell (≈ 11 MB for a month of `mrr_movements` at a million subscriptions, where the rows
/// as arrays of strings took three times that).
struct MonthRowsDigest {
    private var bytes: [UInt8] = []
    /// Rows held, the columns not counted.
    private(set) var count = 0

    private static let null: UInt8 = 0, value: UInt8 = 1, rowEnd: UInt8 = 2

    /// A month of a report with `columns`, which come first.
    init(columns: [String]) {
        append(columns.map { Optional($0) })
    }

    /// Adds one row.
    mutating func add(_ row: [String?]) {
        append(row)
        count += 1
    }

    /// The hex SHA-256 of the columns and rows added.
    func hex() -> String {
        let hasher = SHA256Hasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.hex()
    }

    /// Hands the rows (not the columns) to `body` in order, `size` at a time.
    func forEachBatch(of size: Int, _ body: ([[String?]]) throws -> Void) throws {
        var batch: [[String?]] = [], row: [String?] = [], at = 0, columnsRead = false
        batch.reserveCapacity(size)
        try bytes.withUnsafeBytes { raw in
            while at < raw.count {
                let mark = raw[at]
                at += 1
                switch mark {
                case Self.null:
                    row.append(nil)
                case Self.value:
                    let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
                    row.append(String(decoding: UnsafeRawBufferPointer(rebasing: raw[(at + 4)..<(at + 4 + length)]), as: UTF8.self))
                    at += 4 + length
                default:
                    if columnsRead { batch.append(row) } else { columnsRead = true }
                    row = []
                    if batch.count == size {
                        try body(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                }
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    private mutating func append(_ row: [String?]) {
        for cell in row {
            guard var cell else {
                bytes.append(Self.null)
                continue
            }
            bytes.append(Self.value)
            cell.withUTF8 { utf8 in
                withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
                bytes.append(contentsOf: utf8)
            }
        }
        bytes.append(Self.rowEnd)
    }
}
