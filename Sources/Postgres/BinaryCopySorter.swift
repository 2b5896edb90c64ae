import CompactMemory
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sorts the tuples of a binary `COPY … TO STDOUT` by some of their fields with bounded memory: tuples are gathered
/// into runs of about `runBytes`, each run sorted in memory (by an 8-byte abbreviation of its first key, past the
/// prefix every key of the run shares, then by the keys in full) and, when there is more than one, written to an
/// unlinked temporary file; `finish` merges the runs. Memory is one run, whatever the number of tuples.
///
/// Text keys compare as `COLLATE "C"` does (their bytes, a shorter one first when it is a prefix of the other);
/// integer keys (`int2`, `int4`, `int8`) by value; NULL after every value, as `ORDER BY … ASC` puts it. Ties on every
/// key keep no particular order: the keys must make the order total where it matters.
///
/// Why it exists (decision, docs/RECONCILIATION.md, "Reconcile"): the reconcile's two sides used to be sorted by the
/// server, each with two parallel workers; on two cores that sort and the workers' hand-over were ≈ 2.5 s of the 3M
/// month's ≈ 4.3 s of server CPU, and the client waited for it before its first row. The server now sends both sides
/// unsorted and the client sorts them here while they arrive.
public final class BinaryCopySorter {
    /// A key: a field's index and how it compares.
    public enum Key: Sendable {
        /// Text (or bytea) compared by its bytes.
        case bytes(Int)
        /// A signed big-endian integer of 2, 4 or 8 bytes.
        case integer(Int)
    }

    /// Where a spill failed (the spill file's own failure: creating, writing or reading it back).
    public typealias SpillError = SpillFile.Failure

    /// One tuple of the run in memory: where its message is in `buffer`, and the abbreviation of its first key.
    private struct Entry {
        var offset: Int
        var length: Int
        var prefix: UInt64
    }

    private let keys: [Key]
    private let runBytes: Int
    private let directory: String
    private var buffer: [UInt8] = []
    private var entries: [Entry] = []
    /// The spill file (nil until the first run is written) and the runs in it (file offset, bytes).
    private var file: SpillFile?
    private var runs: [(start: Int, end: Int)] = []

    /// A sorter by `keys` (at least one) holding about `runBytes` of tuples in memory and spilling the rest to a
    /// file in `directory` (by default `TMPDIR`, else /tmp).
    public init(keys: [Key], runBytes: Int = 8 << 20, directory: String? = nil) {
        precondition(!keys.isEmpty, "a sort needs a key")
        self.keys = keys
        self.runBytes = runBytes
        self.directory = directory ?? SpillFile.defaultDirectory
        buffer.reserveCapacity(runBytes + (64 << 10))
    }

    /// Adds one tuple message (as `BinaryCopyReader` read it; `fields` its fields). A key field past the tuple's
    /// fields is an error.
    /// The tuple alone is kept (the server may send the header in the first tuple's message); `finish` hands out
    /// tuples alone, which `BinaryCopyReader.afterHeader()` reads.
    public func add(_ message: UnsafeRawBufferPointer, fields: [Range<Int>?]) throws {
        for key in keys {
            guard key.field < fields.count else {
                throw PostgresError(.copy, message: "binary COPY sort: key field \(key.field + 1) of a \(fields.count)-field tuple")
            }
            if case let .integer(index) = key, let range = fields[index], ![2, 4, 8].contains(range.count) {
                throw PostgresError(.copy, message: "binary COPY sort: key field \(index + 1) is not an integer (\(range.count) bytes)")
            }
        }
        let tuple = fields.reduce(2) { $0 + 4 + ($1?.count ?? 0) }
        let offset = buffer.count
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: message[(message.count - tuple)...]))
        entries.append(Entry(offset: offset, length: tuple, prefix: 0))
        if buffer.count >= runBytes { try spill() }
    }

    /// Calls `body` with every tuple added, in order of the keys; the sorter is empty after it.
    public func finish(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        defer { reset() }
        if runs.isEmpty {
            sortRun()
            try buffer.withUnsafeBytes { bytes in
                for entry in entries { try body(UnsafeRawBufferPointer(rebasing: bytes[entry.offset..<(entry.offset + entry.length)])) }
            }
            return
        }
        if !entries.isEmpty { try spill() }
        buffer = []
        entries = []
        try merge(body)
    }

    // MARK: - A run in memory

    /// Sorts the run in memory: abbreviations first, the keys in full on a tie.
    private func sortRun() {
        guard entries.count > 1 else { return }
        let keys = self.keys
        buffer.withUnsafeBytes { bytes in
            let skip = Self.sharedPrefix(bytes, entries, keys[0])
            for index in entries.indices {
                let entry = entries[index]
                entries[index].prefix = Self.abbreviation(UnsafeRawBufferPointer(rebasing: bytes[entry.offset..<(entry.offset + entry.length)]),
                                                          keys[0], skip: skip)
            }
            entries.sort { a, b in
                if a.prefix != b.prefix { return a.prefix < b.prefix }
                return Self.compare(UnsafeRawBufferPointer(rebasing: bytes[a.offset..<(a.offset + a.length)]),
                                    UnsafeRawBufferPointer(rebasing: bytes[b.offset..<(b.offset + b.length)]), keys) < 0
            }
        }
    }

    /// Bytes every first key of the run starts with (0 for an integer key), so the abbreviations discriminate.
    private static func sharedPrefix(_ bytes: UnsafeRawBufferPointer, _ entries: [Entry], _ key: Key) -> Int {
        guard case let .bytes(index) = key, let first = entries.first else { return 0 }
        func text(_ entry: Entry) -> UnsafeRawBufferPointer? {
            let message = UnsafeRawBufferPointer(rebasing: bytes[entry.offset..<(entry.offset + entry.length)])
            return field(message, index).map { UnsafeRawBufferPointer(rebasing: message[$0]) }
        }
        guard let reference = text(first) else { return 0 }
        var shared = reference.count
        for entry in entries.dropFirst() where shared > 0 {
            guard let other = text(entry) else { return 0 }
            var common = 0
            let limit = min(shared, other.count)
            while common < limit && other[common] == reference[common] { common += 1 }
            shared = common
        }
        return shared
    }

    /// An order-preserving 8-byte abbreviation of the tuple's first key: the 8 bytes after `skip`, zero-padded (a
    /// shorter text sorts first, as a zero byte does), or an integer with its sign bit flipped; NULL the largest.
    private static func abbreviation(_ message: UnsafeRawBufferPointer, _ key: Key, skip: Int) -> UInt64 {
        guard let range = field(message, key.field) else { return .max }
        switch key {
        case .bytes:
            var value: UInt64 = 0
            var at = range.lowerBound + skip
            for _ in 0..<8 {
                value <<= 8
                if at < range.upperBound { value |= UInt64(message[at]) }
                at += 1
            }
            return value
        case .integer:
            return UInt64(bitPattern: integer(message, range)) ^ (1 << 63)
        }
    }

    // MARK: - Spilling and merging

    /// Sorts the run in memory and appends it to the spill file.
    private func spill() throws {
        sortRun()
        let file = try self.file ?? SpillFile(purpose: "binary COPY sort", directory: directory)
        self.file = file
        let start = file.size
        try buffer.withUnsafeBytes { bytes in
            for entry in entries {
                try withUnsafeBytes(of: UInt32(entry.length).littleEndian) { try file.append($0) }
                try file.append(UnsafeRawBufferPointer(rebasing: bytes[entry.offset..<(entry.offset + entry.length)]))
            }
        }
        runs.append((start, file.size))
        buffer.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
    }

    /// Merges the spilled runs into `body`, a min-heap of the runs by their current tuple.
    private func merge(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let file else { return }
        try file.flush()
        var readers = try runs.map { try RunReader(file: file.descriptor, start: $0.start, end: $0.end) }
        var heap = readers.indices.filter { readers[$0].current != nil }
        let keys = self.keys
        func less(_ a: Int, _ b: Int) -> Bool {
            readers[a].withCurrent { x in readers[b].withCurrent { y in Self.compare(x, y, keys) < 0 } }
        }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count && less(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count && less(heap[right], heap[smallest]) { smallest = right }
                if smallest == parent { return }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        while let top = heap.first {
            try readers[top].withCurrent { try body($0) }
            if try readers[top].advance() {
                siftDown(0)
            } else {
                heap.swapAt(0, heap.count - 1)
                heap.removeLast()
                if !heap.isEmpty { siftDown(0) }
            }
        }
    }

    private func reset() {
        buffer.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        file = nil
        runs = []
    }

    /// Reads one spilled run back through a buffer of its own: length-prefixed tuples.
    private struct RunReader {
        let file: Int32
        var position: Int
        let end: Int
        var buffer: [UInt8]
        /// The current tuple in `buffer`; nil once the run is exhausted.
        var current: Range<Int>?
        var consumed = 0
        var filled = 0

        init(file: Int32, start: Int, end: Int) throws {
            self.file = file
            position = start
            self.end = end
            buffer = [UInt8](repeating: 0, count: 32 << 10)
            _ = try advance()
        }

        func withCurrent<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[current ?? 0..<0])) }
        }

        /// Moves to the next tuple; false when the run has none left.
        mutating func advance() throws -> Bool {
            if let current { consumed = current.upperBound }
            guard try ensure(4) else { current = nil; return false }
            let length = Int(UInt32(littleEndian: buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: consumed, as: UInt32.self) }))
            guard try ensure(4 + length) else {
                throw SpillError(description: "binary COPY sort: a run of the temporary file ends inside a tuple")
            }
            current = (consumed + 4)..<(consumed + 4 + length)
            return true
        }

        /// Makes `count` bytes from `consumed` available in the buffer, reading more of the run; false at the run's end.
        private mutating func ensure(_ count: Int) throws -> Bool {
            if filled - consumed >= count { return true }
            if consumed > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    memmove(base, base + consumed, filled - consumed)
                }
                filled -= consumed
                consumed = 0
            }
            if count > buffer.count { buffer += [UInt8](repeating: 0, count: count - buffer.count) }
            while filled < count && position < end {
                let want = min(buffer.count - filled, end - position)
                let got = buffer.withUnsafeMutableBytes { raw in raw.baseAddress.map { pread(file, $0 + filled, want, off_t(position)) } ?? -1 }
                if got < 0 {
                    if errno == EINTR { continue }
                    throw SpillError(description: "binary COPY sort: reading a run back: \(String(cString: strerror(errno)))")
                }
                if got == 0 { break }
                filled += got
                position += got
            }
            if filled - consumed >= count { return true }
            if filled == consumed { return false }
            throw SpillError(description: "binary COPY sort: a run of the temporary file ends inside a tuple")
        }
    }

    // MARK: - Fields and comparison

    /// Compares two tuples by `keys`.
    static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, _ keys: [Key]) -> Int {
        for key in keys {
            let x = field(a, key.field), y = field(b, key.field)
            guard let x, let y else {
                if x == nil && y == nil { continue }
                return x == nil ? 1 : -1
            }
            let order: Int
            switch key {
            case .bytes:
                order = ByteInterner.compare(UnsafeRawBufferPointer(rebasing: a[x]), UnsafeRawBufferPointer(rebasing: b[y]))
            case .integer:
                let p = integer(a, x), q = integer(b, y)
                order = p < q ? -1 : (p > q ? 1 : 0)
            }
            if order != 0 { return order }
        }
        return 0
    }

    /// The `index`th field of a tuple message (nil: NULL); the message was read by `BinaryCopyReader`.
    static func field(_ message: UnsafeRawBufferPointer, _ index: Int) -> Range<Int>? {
        var at = 2
        var field = 0
        while true {
            let length = Int(Int32(bigEndian: message.loadUnaligned(fromByteOffset: at, as: Int32.self)))
            at += 4
            if field == index { return length < 0 ? nil : at..<(at + length) }
            at += max(length, 0)
            field += 1
        }
    }

    /// A big-endian signed integer field of 2, 4 or 8 bytes.
    static func integer(_ message: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int64 {
        switch range.count {
        case 2: return Int64(Int16(bigEndian: message.loadUnaligned(fromByteOffset: range.lowerBound, as: Int16.self)))
        case 4: return Int64(Int32(bigEndian: message.loadUnaligned(fromByteOffset: range.lowerBound, as: Int32.self)))
        default: return Int64(bigEndian: message.loadUnaligned(fromByteOffset: range.lowerBound, as: Int64.self))
        }
    }
}

extension BinaryCopySorter.Key {
    /// The key's field index.
    var field: Int {
        switch self {
        case let .bytes(index), let .integer(index): return index
        }
    }
}
