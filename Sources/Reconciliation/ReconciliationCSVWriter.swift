import Crypto
import Foundation
import JobKit

/// Writes the items CSV as items come, hashing it as it goes: the bytes equal `ReconciliationCSV.items` of the same
/// items, the digest equals their SHA-256, and no more than a few buffers of the file are held (full buffers are
/// hashed and written by a `BufferWriterThread` while the next is filled). With a path the file is
/// written to a temporary name in the same folder and renamed by `commit()` (as `AtomicFile` does); without one only
/// the digest is made.
public final class ReconciliationCSVWriter {
    let path: URL?
    let temporary: URL?
    private var handle: FileHandle?
    private let hasher = SHA256Hasher()
    private var buffer: [UInt8] = []
    private var digest: String?
    private var writer: BufferWriterThread?
    /// Items written.
    public private(set) var count = 0
    /// Bytes written.
    public private(set) var byteCount = 0
    static let flushAt = 1 << 18

    /// A writer to `path` (nil: digest only).
    public init(path: URL?) throws {
        self.path = path
        temporary = path.map { $0.deletingLastPathComponent().appendingPathComponent(".\($0.lastPathComponent).tmp-\(getpid())") }
        if let temporary {
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw FileSystemError.posix("create", temporary.path, errno: errno)
            }
            handle = try FileSystemError.perform("open for writing", temporary.path) { try FileHandle(forWritingTo: temporary) }
        }
        buffer.reserveCapacity(Self.flushAt + 4_096)
        ReconciliationCSV.appendHeader(to: &buffer)
    }

    deinit {
        writer?.stop()
        try? handle?.close()
        if digest == nil || handle != nil, let temporary { try? FileManager.default.removeItem(at: temporary) }
    }

    /// Appends the next item's line.
    public func add(_ item: ReconciliationItem) throws {
        count += 1
        ReconciliationCSV.append(item, line: count, to: &buffer)
        if buffer.count >= Self.flushAt { try flush() }
    }

    /// Appends `lines` lines already formatted (numbered from `count + 1` on) as `bytes`.
    func addFormatted(_ bytes: [UInt8], lines: Int) throws {
        count += lines
        guard bytes.count >= Self.flushAt else {
            buffer.append(contentsOf: bytes)
            if buffer.count >= Self.flushAt { try flush() }
            return
        }
        // A chunk as large as a buffer goes to the writing thread as it is, after what is buffered.
        try flush()
        byteCount += bytes.count
        try writerThread().enqueue(bytes)
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        byteCount += buffer.count
        buffer = try writerThread().submit(buffer)
    }

    /// The thread hashing and writing full buffers, started with the first of them.
    private func writerThread() -> BufferWriterThread {
        if let writer { return writer }
        let started = BufferWriterThread(hasher: hasher, handle: handle, path: temporary?.path ?? "")
        writer = started
        return started
    }

    /// Writes what is buffered and returns the file's SHA-256 (64 lower-case hex digits); the file is complete but
    /// still under its temporary name.
    public func finish() throws -> String {
        if let digest { return digest }
        try flush()
        if let writer {
            defer { writer.stop(); self.writer = nil }
            try writer.drain()
        }
        let hex = hasher.hex()
        digest = hex
        return hex
    }

    /// Finishes and puts the file in place, mode 0640 (`OutputFile`; nothing to do without a path).
    public func commit() throws {
        _ = try finish()
        guard let handle, let temporary, let path else { return }
        try handle.close()
        self.handle = nil
        try OutputFile.place(temporary, at: path)
    }
}
