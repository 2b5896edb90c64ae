import Crypto
import Foundation
import Postgres
import StoreExports
#if canImport(Glibc)
import Glibc
#endif

/// A report file kept as its bytes (`report_file_content`, migration 0033): the file exactly as it is on disk (the
/// zip, gzip or CSV import-exports read), in 1 MiB chunks under the SHA-256 of those bytes, identical files kept once.
/// Written in the transaction that stages the file; the caller compares the file's stamp from before its streamed
/// read with the one after `keep`, so the bytes kept are the bytes parsed.
public struct KeptReportFile: Equatable, Sendable {
    /// SHA-256 of the file's bytes.
    public let sha256: [UInt8]
    /// The file's size in bytes.
    public let size: Int64

    /// The chunk size.
    static let chunk = 1 << 20

    /// Keeps the bytes of the file at `path` (named `name` in errors) in `database`, unless bytes with the same hash
    /// are kept already; a file that changes between the two reads (hash, then copy) is refused. Runs inside the
    /// staging transaction, which must be READ COMMITTED (`ReportLoader` opens it so).
    ///
    /// Two imports of the same bytes under different report keys may run at once, each in its own transaction: the
    /// hash's lock (`report_file_content_lock`, migration 0033; held to commit) comes before the check, so the second
    /// waits for the first to commit or roll back. The check is a statement of its own after the lock: at READ
    /// COMMITTED it sees the chunks the first committed (and writes none) or, if the first rolled back or a delete
    /// removed them, none (and writes them). At REPEATABLE READ a snapshot taken by an earlier statement of the
    /// transaction would miss them and the COPY would collide on the primary key; hence READ COMMITTED. A delete of
    /// the last file naming the bytes takes the same lock, so it cannot remove them while this import commits a file
    /// naming them.
    ///
    /// `known`, the file's hash and size from a first look before the staging (`firstLook`), spares the read that
    /// hashes the file: the copy's read must then give the same hash and size, or the file changed since and is refused.
    static func keep(_ path: String, name: String, known: KeptReportFile? = nil, in database: PostgresConnection) throws -> KeptReportFile {
        let first = try known ?? hash(path, name: name)
        let sha256 = hexLiteral(first.sha256)
        _ = try database.query("SELECT report_file_content_lock($1::bytea)", [sha256])
        let held = try database.query("SELECT 1 FROM report_file_content WHERE sha256 = $1::bytea AND chunk = 0",
                                      [sha256]).first != nil
        var second: KeptReportFile?
        if held {
            // Kept already: the file is read once more only when its hash came from before the staging's read.
            guard known != nil else { return first }
            second = try hash(path, name: name)
        } else {
            try database.copyIn("COPY report_file_content (sha256, chunk, bytes) FROM STDIN (FORMAT binary)") { copy in
                var writer = BinaryCopyWriter(copy)
                var index: Int32 = 0
                second = try read(path, name: name) { bytes in
                    try writer.beginRow(fields: 3)
                    first.sha256.withUnsafeBytes { writer.text($0) }
                    writer.int32(index)
                    writer.text(bytes)
                    index += 1
                }
                try writer.finish()
            }
        }
        guard second == first else {
            throw StoreReportError(file: name, line: 1, column: 1, reason: "the file changed while it was read (its bytes "
                                   + "differ between two reads); nothing imported: import it again once it is complete")
        }
        return first
    }

    /// The hash and size of the file's bytes as they are now (a rerun's first look: a file whose bytes a report
    /// already holds is not read further), nil when it cannot be read: the staging's read then says why.
    public static func firstLook(_ path: String) -> KeptReportFile? {
        try? hash(path, name: path)
    }

    /// `sha256` as a `bytea` literal in hex (`\x…`), a query parameter.
    static func hexLiteral(_ sha256: [UInt8]) -> String {
        "\\x" + SHA256Digest.lowerHex(sha256)
    }

    /// The hash and size of the file at `path`, read once.
    private static func hash(_ path: String, name: String) throws -> KeptReportFile {
        try read(path, name: name) { _ in }
    }

    /// Reads the file at `path` in `chunk`-byte pieces (each full but the last), handing each to `body`; returns its
    /// hash and size.
    private static func read(_ path: String, name: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> KeptReportFile {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw StoreReportError(file: name, line: 1, column: 1, reason: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let hasher = SHA256Hasher()
        var buffer = [UInt8](repeating: 0, count: chunk)
        var total: Int64 = 0
        var filled = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress.map { $0 + filled }, chunk - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StoreReportError(file: name, line: 1, column: 1, reason: "cannot read the file: \(String(cString: strerror(errno)))")
            }
            filled += count
            if filled == chunk || (count == 0 && filled > 0) {
                try buffer.withUnsafeBytes { piece in
                    let bytes = UnsafeRawBufferPointer(rebasing: piece[0..<filled])
                    hasher.update(bytes)
                    try body(bytes)
                }
                total += Int64(filled)
                filled = 0
            }
            if count == 0 { break }
        }
        return KeptReportFile(sha256: hasher.digest(), size: total)
    }
}
