import Crypto
import Foundation
import CompactMemory
import JobKit

/// Hashes full buffers and writes them to a file on a thread of its own, in the order they are handed over, while
/// the caller fills the next one: a million-line items CSV is formatted on one core and hashed and written on the
/// other. At most `depth` buffers wait; spent buffers come back for reuse. A write's failure is thrown to the caller
/// at its next hand-over or at `drain()`.
final class BufferWriterThread: @unchecked Sendable {
    private let hasher: SHA256Hasher
    private let handle: FileHandle?
    /// The file `handle` writes, named in a write's failure.
    private let path: String
    private let buffers = BoundedHandOff<[UInt8]>(depth: depth, spares: depth)
    /// Signalled once the thread has ended.
    private let ended = DispatchSemaphore(value: 0)
    static let depth = 2

    /// Starts the thread; every buffer goes into `hasher` and, when there is one, to `handle`.
    init(hasher: SHA256Hasher, handle: FileHandle?, path: String = "") {
        self.hasher = hasher
        self.handle = handle
        self.path = path
        let thread = Thread { [self] in run() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Queues `buffer` (waiting for room) and returns an empty buffer to fill next.
    func submit(_ buffer: [UInt8]) throws -> [UInt8] {
        try enqueue(buffer)
        var next = buffers.spare() ?? []
        next.reserveCapacity(buffer.capacity)
        return next
    }

    /// Queues `buffer` (waiting for room).
    func enqueue(_ buffer: [UInt8]) throws {
        try buffers.put(buffer)
    }

    /// Waits until every queued buffer is hashed and written.
    func drain() throws {
        try buffers.waitUntilConsumed()
    }

    /// Ends the thread once the queued buffers are done (waits for it).
    func stop() {
        buffers.finish()
        ended.wait()
        ended.signal()  // a second `stop` returns at once
    }

    private func run() {
        defer { ended.signal() }
        while true {
            let taken: [UInt8]?
            // The producer's `finish()` carries no failure: `take` throws nothing here, it only ends the loop.
            do { taken = try buffers.take() } catch { return }
            guard var buffer = taken else { return }
            hasher.update(buffer)
            if let handle {
                do { try handle.write(contentsOf: buffer) } catch let failed {
                    buffers.stop(FileSystemError("write", path, reason: FileSystemError.reason(of: failed)))
                    return
                }
            }
            buffer.removeAll(keepingCapacity: true)
            buffers.recycle(buffer)
        }
    }
}
