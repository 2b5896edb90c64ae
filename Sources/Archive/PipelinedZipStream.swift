import CompactMemory
import Foundation

extension CompressedReader {
    /// `streamZipMember` with the decompression on a thread of its own, a few chunks ahead of the caller: `member`
    /// and `body` still run on the calling thread, in the same order and with the same bytes (gathered into chunks
    /// of about `batch` bytes), and a failure of the archive reaches the caller after every chunk read before it, as
    /// it would without the thread. When `member` or `body` throws, the decompression stops and that error is
    /// thrown. Returns when the thread has finished.
    public static func streamZipMemberPipelined(path: String, compressedSize: Int, limits: ArchiveLimits = .standard,
                                                batch: Int = 1 << 19, member: (String, Int) throws -> Void,
                                                chunk body: (UnsafeRawBufferPointer) throws -> Void) throws -> StreamedMember {
        let pipe = ChunkPipe(depth: 4)
        let thread = Thread {
            let outcome = Result {
                try streamZipMember(path: path, compressedSize: compressedSize, limits: limits, member: { name, index in
                    try pipe.flush()
                    try pipe.put(.member(name, index))
                }, chunk: { bytes in
                    try pipe.append(bytes, batch: batch)
                })
            }
            try? pipe.flush()
            try? pipe.put(.end(outcome))
            pipe.producerDone()
        }
        thread.stackSize = 1 << 20
        thread.start()
        defer { pipe.finish() }
        while true {
            switch try pipe.take() {
            case let .member(name, index):
                do { try member(name, index) } catch { pipe.cancel(); throw error }
            case let .chunk(bytes):
                do { try bytes.withUnsafeBytes { try body($0) } } catch { pipe.cancel(); throw error }
                pipe.recycle(bytes)
            case let .end(outcome):
                return try outcome.get()
            }
        }
    }
}

/// The decompressing thread's side of the hand-over to the reader (`BoundedHandOff`, at most `depth` events
/// waiting): gathers the inflated bytes into chunks of about `batch` bytes, reusing chunk buffers the reader hands back.
final class ChunkPipe: @unchecked Sendable {
    enum Event {
        case member(String, Int)
        case chunk([UInt8])
        case end(Result<CompressedReader.StreamedMember, Error>)
    }

    private let events: BoundedHandOff<Event>
    private let buffers = BoundedHandOff<[UInt8]>(depth: 1, spares: 2)
    /// The batch being filled (decompressing thread only).
    private var filling: [UInt8] = []

    init(depth: Int) {
        events = BoundedHandOff(depth: depth)
    }

    /// Adds decompressed bytes to the batch, sending each batch as it reaches `batch` bytes.
    func append(_ bytes: UnsafeRawBufferPointer, batch: Int) throws {
        var offset = 0
        while offset < bytes.count {
            if filling.capacity == 0 {
                filling = buffers.spare() ?? []
                filling.reserveCapacity(batch)
            }
            let take = min(batch - filling.count, bytes.count - offset)
            filling.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)]))
            offset += take
            if filling.count >= batch { try flush() }
        }
    }

    /// Sends the batch being filled, if any.
    func flush() throws {
        guard !filling.isEmpty else { return }
        let full = filling
        filling = []
        try put(.chunk(full))
    }

    /// Waits for room, then queues `event`; throws once the reader has stopped.
    func put(_ event: Event) throws {
        try events.put(event)
    }

    /// Waits for the next event (the thread always sends `.end` before it finishes, unless the reader stopped it).
    func take() throws -> Event {
        guard let event = try events.take() else { throw BoundedHandOff<Event>.Stopped() }
        return event
    }

    /// Hands a chunk's buffer back for reuse.
    func recycle(_ bytes: [UInt8]) {
        var bytes = bytes
        bytes.removeAll(keepingCapacity: true)
        buffers.recycle(bytes)
    }

    /// Marks the decompressing thread's end (whether it ended with a result or was stopped).
    func producerDone() {
        events.finish()
    }

    /// Stops the decompressing thread at its next chunk.
    func cancel() {
        events.stop()
    }

    /// Stops the decompressing thread if it still runs and waits until it has ended.
    func finish() {
        cancel()
        events.waitUntilFinished()
    }
}
