import Archive
import BillingCore
import Crypto
import Foundation
import StoreExports
#if canImport(Glibc)
import Glibc
#endif

/// Reads a report file's content once as a stream of chunks — a plain file, a gzip stream (within `ArchiveLimits`),
/// or the one CSV of a zip (decompressed a few chunks ahead on a thread of its own, within `ArchiveLimits`) — hashing exactly the bytes handed on, so
/// memory does not grow with the file. A file whose size, inode or modification time changed during the read is
/// refused (it was being written or replaced), before any other defect is reported.
enum ReportStream {
    /// The content's SHA-256 (hex) and the name its defects are reported under (`file.zip/member.csv`).
    struct Content {
        let sha256: String
        let label: String
    }

    /// Streams the content of the report file at `path` to `chunk`. `label` is told the member's name before the
    /// first chunk; `position` says how far the reader got (line, column) for a container that breaks off;
    /// `afterReading` runs between the read and the second look at the file (tests change the file there);
    /// `finish` runs after that look (the reader's last checks).
    static func read(_ path: String, afterReading: () throws -> Void = {}, label: (String) -> Void = { _ in },
                     position: () -> (line: Int, column: Int) = { (1, 1) },
                     chunk: (UnsafeRawBufferPointer) throws -> Void, finish: () throws -> Void = {}) throws -> Content {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let hasher = SHA256Hasher()
        let before = FileStamp.of(path)
        // The bytes of a plain file read (compared with its size: a file that grew or shrank meanwhile is refused).
        var read: Int? = 0
        var member: String?
        var failure: Error?
        do {
            switch StoreReportKind.container(of: name) {
            case .zip:
                member = try zipMember(path, name: name, size: Int(before?.size ?? 0), position: position, label: label) {
                    hasher.update($0)
                    try chunk($0)
                }
            case .gzip:
                try gzip(path, name: name, size: Int(before?.size ?? 0), position: position) {
                    hasher.update($0)
                    try chunk($0)
                }
                read = nil
            case .plain:
                read = try plain(path, name: name) {
                    hasher.update($0)
                    try chunk($0)
                }
            }
        } catch {
            failure = error
        }
        try afterReading()
        let after = FileStamp.of(path)
        guard let before, before == after, member != nil || failure != nil || read.map({ before.size == Int64($0) }) ?? true else {
            throw StoreReportError(file: name, line: 1, column: 1, reason: "the file changed while it was read (before: "
                                   + "\(before?.description ?? "unreadable"); after: \(after?.description ?? "gone")); "
                                   + "nothing imported: import it again once it is complete")
        }
        if let failure { throw failure }
        try finish()
        return Content(sha256: hasher.hex(), label: member.map { name + "/" + $0 } ?? name)
    }

    /// The content's SHA-256 alone (a rerun's first look: an unchanged file is not read twice), nil when the file
    /// cannot be read or changes meanwhile: the full read then says why.
    static func sha256(_ path: String) -> String? {
        try? read(path, chunk: { _ in }).sha256
    }

    /// Reads a plain file in 1 MiB chunks; returns the bytes read.
    private static func plain(_ path: String, name: String, _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw StoreReportError(file: name, line: 1, column: 1, reason: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return total }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw StoreReportError(file: name, line: 1, column: 1, reason: "cannot read the file: \(String(cString: strerror(errno)))")
            }
            total += count
            try buffer.withUnsafeBytes { try chunk(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// Throws unless the container at `path` (`size` bytes) is not empty and starts with `signature`.
    private static func checkSignature(_ path: String, name: String, size: Int, _ signature: [UInt8], otherwise reason: String) throws {
        guard size > 0 else { throw StoreReportError(file: name, line: 1, column: 1, reason: "empty file") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreReportError(file: name, line: 1, column: 1, reason: "cannot read the file")
        }
        let start = (try? handle.read(upToCount: signature.count)).flatMap { $0 } ?? Data()
        try? handle.close()
        guard [UInt8](start) == signature else { throw StoreReportError(file: name, line: 1, column: 1, reason: reason) }
    }

    /// Streams the decompressed content of the gzip file at `path`: not empty, gzip data; a failure after some content
    /// names where that content ends.
    private static func gzip(_ path: String, name: String, size: Int, position: () -> (line: Int, column: Int),
                             _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        try checkSignature(path, name: name, size: size, [0x1F, 0x8B], otherwise: "not gzip data (no 1F 8B signature)")
        var produced = false
        do {
            _ = try CompressedReader.streamGzip(path: path, compressedSize: size) { bytes in
                produced = true
                try chunk(bytes)
            }
        } catch let failure as CompressedReader.Failure {
            let at: (line: Int, column: Int) = produced ? position() : (1, 1)
            throw StoreReportError(file: name, line: at.line, column: at.column, reason: failure.reason)
        }
    }

    /// Streams the one CSV member of the zip at `path`; returns its name: not empty, a zip, exactly one file and a
    /// `.csv`.
    private static func zipMember(_ path: String, name: String, size: Int, position: () -> (line: Int, column: Int),
                                  label: (String) -> Void, _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws -> String {
        try checkSignature(path, name: name, size: size, [0x50, 0x4B], otherwise: "not zip data (no PK signature)")
        var first: String?
        do {
            let member = try CompressedReader.streamZipMemberPipelined(path: path, compressedSize: size, member: { member, index in
                guard index == 0 else {
                    throw StoreReportError(file: name + "/" + member, line: 1, column: 1,
                                           reason: "a second file in the zip (after '\(Redaction.excerpt(first ?? ""))'); expected exactly one CSV")
                }
                guard member.lowercased().hasSuffix(".csv") else {
                    throw StoreReportError(file: name + "/" + member, line: 1, column: 1, reason: "the zip's only file is not a .csv")
                }
                first = member
                label(name + "/" + member)
            }, chunk: chunk)
            return member.name
        } catch let failure as CompressedReader.Failure {
            let at: (line: Int, column: Int) = failure.member != nil && first != nil ? position() : (1, 1)
            throw StoreReportError(file: failure.member.map { name + "/" + $0 } ?? name, line: at.line, column: at.column,
                                   reason: failure.reason)
        }
    }
}
