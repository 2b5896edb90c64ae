import CArchive

/// Reads the compressed containers the stores deliver — a gzip stream (Apple's API) or a zip holding exactly
/// one CSV (Google's monthly reports) — through libarchive, with zip-bomb limits. A damaged container is
/// rejected with the line and column its readable content reached.
public enum ReportArchive {
    /// The decompressed bytes of gzip data `bytes` read from `file`.
    public static func gunzip(_ bytes: [UInt8], file: String, limits: ArchiveLimits = .standard) throws -> [UInt8] {
        let members = try read(bytes, file: file, limits: limits, zip: false)
        guard let only = members.first else { throw StoreReportError(file: file, line: 1, column: 1, reason: "empty gzip stream") }
        return only.1
    }

    /// The one CSV member (name, bytes) of zip data `bytes` read from `file`; directories are skipped,
    /// a second member or none at all rejects the archive.
    public static func singleCSV(_ bytes: [UInt8], file: String, limits: ArchiveLimits = .standard) throws -> (name: String, bytes: [UInt8]) {
        let members = try read(bytes, file: file, limits: limits, zip: true)
        guard let first = members.first else { throw StoreReportError(file: file, line: 1, column: 1, reason: "no file in the zip") }
        if members.count > 1 {
            throw StoreReportError(file: file + "/" + members[1].0, line: 1, column: 1,
                                   reason: "a second file in the zip (after '\(first.0)'); expected exactly one CSV")
        }
        guard first.0.lowercased().hasSuffix(".csv") else {
            throw StoreReportError(file: file + "/" + first.0, line: 1, column: 1, reason: "the zip's only file is not a .csv")
        }
        return first
    }

    static func read(_ bytes: [UInt8], file: String, limits: ArchiveLimits, zip: Bool) throws -> [(String, [UInt8])] {
        guard !bytes.isEmpty else { throw StoreReportError(file: file, line: 1, column: 1, reason: "empty file") }
        let magic: [UInt8] = zip ? [0x50, 0x4B] : [0x1F, 0x8B]
        guard bytes.starts(with: magic) else {
            throw StoreReportError(file: file, line: 1, column: 1, reason: "not \(zip ? "zip" : "gzip") data (no \(zip ? "PK" : "1F 8B") signature)")
        }
        guard let archive = archive_read_new() else { throw StoreReportError(file: file, line: 1, column: 1, reason: "archive_read_new failed") }
        defer { archive_read_free(archive) }
        if zip {
            archive_read_support_format_zip(archive)
        } else {
            archive_read_support_filter_gzip(archive)
            archive_read_support_format_raw(archive)
        }
        var members: [(String, [UInt8])] = []
        var total = 0
        try bytes.withUnsafeBytes { raw in
            guard archive_read_open_memory(archive, raw.baseAddress, raw.count) == ARCHIVE_OK else {
                throw StoreReportError(file: file, line: 1, column: 1, reason: "cannot open the \(zip ? "zip" : "gzip") data: " + message(archive))
            }
            var entry: OpaquePointer?
            while true {
                let status = archive_read_next_header(archive, &entry)
                if status == ARCHIVE_EOF { break }
                guard status == ARCHIVE_OK || status == ARCHIVE_WARN else {
                    let position = members.last.map { file + "/" + $0.0 } ?? file
                    throw StoreReportError(file: position, line: 1, column: 1, reason: "damaged archive: " + message(archive))
                }
                if !zip, archive_filter_code(archive, 0) != ARCHIVE_FILTER_GZIP {
                    throw StoreReportError(file: file, line: 1, column: 1, reason: "damaged gzip data: incomplete gzip header")
                }
                if zip, archive_entry_filetype(entry) == 0o040000 { continue }
                let name = archive_entry_pathname(entry).map { String(cString: $0) } ?? "data"
                let member = zip ? file + "/" + name : file
                var data: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let count = chunk.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
                    if count == 0 { break }
                    guard count > 0 else {
                        throw positioned(member, data, "truncated or damaged \(zip ? "zip" : "gzip") data after \(data.count) bytes: " + message(archive))
                    }
                    data += chunk[0..<count]
                    total += count
                    if let violation = limits.violation(produced: total, compressed: bytes.count) {
                        throw positioned(member, data, "archive " + violation)
                    }
                }
                members.append((name, data))
            }
        }
        return members
    }

    /// An error at the end of the readable content `data` (its last line and the column after its last character).
    static func positioned(_ file: String, _ data: [UInt8], _ reason: String) -> StoreReportError {
        let newlines = data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        let lastLine = data.lastIndex(of: 0x0A).map { data[($0 + 1)...] } ?? data[...]
        let characters = lastLine.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return StoreReportError(file: file, line: newlines + 1, column: characters + 1, reason: reason)
    }

    static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "libarchive error"
    }
}
