import Crypto
import Foundation
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
    private let condition = NSCondition()
    private var waiting: [[UInt8]] = []
    private var spare: [[UInt8]] = []
    private var busy = false
    private var stopped = false
    private var ended = false
    private var failure: Error?
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
        condition.lock()
        defer { condition.unlock() }
        var next = spare.popLast() ?? []
        next.reserveCapacity(buffer.capacity)
        return next
    }

    /// Queues `buffer` (waiting for room).
    func enqueue(_ buffer: [UInt8]) throws {
        condition.lock()
        defer { condition.unlock() }
        while waiting.count >= Self.depth, failure == nil { condition.wait() }
        if let failure { throw failure }
        waiting.append(buffer)
        condition.broadcast()
    }

    /// Waits until every queued buffer is hashed and written.
    func drain() throws {
        condition.lock()
        defer { condition.unlock() }
        while !waiting.isEmpty || busy, failure == nil { condition.wait() }
        if let failure { throw failure }
    }

    /// Ends the thread once the queued buffers are done (waits for it).
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !ended { condition.wait() }
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            while waiting.isEmpty, !stopped { condition.wait() }
            if waiting.isEmpty || failure != nil { break }
            var buffer = waiting.removeFirst()
            busy = true
            condition.broadcast()
            condition.unlock()
            hasher.update(buffer)
            var error: Error?
            if let handle {
                do { try handle.write(contentsOf: buffer) } catch let failed {
                    error = FileSystemError("write", path, reason: FileSystemError.reason(of: failed))
                }
            }
            buffer.removeAll(keepingCapacity: true)
            condition.lock()
            busy = false
            if let error { failure = error }
            if spare.count < Self.depth { spare.append(buffer) }
            condition.broadcast()
        }
        ended = true
        condition.broadcast()
        condition.unlock()
    }
}
