import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An unlinked temporary file that bytes are appended to and read back from: gone when it is closed (deinit), or
/// when the process ends, so a failed run leaves nothing behind. `BinaryCopySorter` spills its runs to one;
/// build-reports keeps in one what it computed before it can send it (the span hashes and trials, the second session's
/// span digests, the facts it stores), so its memory does not grow with the history.
public final class SpillFile {
    /// Where a spill failed: the operation, the folder and the system's reason.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, with the folder or the system's reason.
        public let description: String

        /// A failure described by `description`.
        public init(description: String) { self.description = description }
    }

    /// The open descriptor (for `pread`, after `flush`).
    public let descriptor: Int32
    /// Bytes appended so far (written or still buffered).
    public private(set) var size = 0
    private let purpose: String
    /// Appended bytes not yet written: small appends are gathered into writes of about `bufferBytes`.
    private var pending: [UInt8] = []
    private static let bufferBytes = 1 << 20

    /// Creates the file in `directory` (by default `TMPDIR`, else /tmp) and unlinks it; `purpose` names it in errors.
    public init(purpose: String, directory: String? = nil) throws {
        let folder = directory ?? Self.defaultDirectory
        self.purpose = purpose
        var template = Array((folder + "/iap-spill-XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else {
            throw Failure(description: "\(purpose): cannot create a temporary file in \(folder): \(String(cString: strerror(errno)))")
        }
        unlink(template)
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// `TMPDIR` when set and not empty, else /tmp.
    public static var defaultDirectory: String {
        ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// Appends `bytes` at the end (buffered: a caller may append a tuple at a time).
    public func append(_ bytes: UnsafeRawBufferPointer) throws {
        if pending.count + bytes.count > Self.bufferBytes { try flush() }
        if bytes.count >= Self.bufferBytes {
            try write(bytes)
        } else {
            if pending.capacity < Self.bufferBytes { pending.reserveCapacity(Self.bufferBytes) }
            pending.append(contentsOf: bytes)
        }
        size += bytes.count
    }

    /// Writes what is buffered, so the descriptor holds every byte appended.
    public func flush() throws {
        guard !pending.isEmpty else { return }
        try pending.withUnsafeBytes { try write($0) }
        pending.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let count = Glibc.write(descriptor, base + done, bytes.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "\(purpose): writing its temporary file: \(String(cString: strerror(errno)))")
            }
            done += count
        }
    }

    /// Reads the bytes at `range` into `into` (which must hold them); fails on a short file.
    public func read(_ range: Range<Int>, into: UnsafeMutableRawBufferPointer) throws {
        try flush()
        guard let base = into.baseAddress, into.count >= range.count else { return }
        var done = 0
        while done < range.count {
            let count = pread(descriptor, base + done, range.count - done, off_t(range.lowerBound + done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw Failure(description: "\(purpose): reading its temporary file: "
                              + (count < 0 ? String(cString: strerror(errno)) : "ends at byte \(range.lowerBound + done)"))
            }
            done += count
        }
    }

    /// Hands every byte appended to `body` in chunks of at most `chunk` bytes, in order.
    public func readAll(chunk: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: chunk)
        var at = 0
        while at < size {
            let length = Swift.min(chunk, size - at)
            try buffer.withUnsafeMutableBytes { try read(at..<(at + length), into: $0) }
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
            at += length
        }
    }
}

extension PostgresConnection {
    /// Loads `file` (a whole binary COPY stream: header, tuples, trailer) into `table` with `COPY … FROM STDIN (FORMAT
    /// binary)`; returns the number of rows loaded.
    @discardableResult
    public func copyIn(_ table: String, binaryFrom file: SpillFile) throws -> Int {
        try copyIn("COPY \(table) FROM STDIN (FORMAT binary)") { copy in
            try file.readAll { try copy.writeRaw($0) }
        }
    }
}
