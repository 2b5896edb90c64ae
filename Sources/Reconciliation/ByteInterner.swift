#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte strings kept end to end in one array, numbered from 0 in order of arrival: a million order IDs or
/// transaction keys as one allocation instead of a million `String`s.
struct ByteArena {
    private(set) var bytes: [UInt8] = []
    /// End offset of each value (its start is the previous value's end).
    private var ends: [Int] = []

    /// Values stored.
    var count: Int { ends.count }

    /// Stores `value`; returns its number.
    @discardableResult
    mutating func append(_ value: UnsafeRawBufferPointer) -> Int32 {
        bytes.append(contentsOf: value)
        ends.append(bytes.count)
        return Int32(ends.count - 1)
    }

    /// The byte range of value `index`.
    func range(_ index: Int32) -> Range<Int> {
        let index = Int(index)
        return (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// Value `index` as text.
    func string(_ index: Int32) -> String {
        let range = range(index)
        return bytes.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// Calls `body` with the bytes of value `index`.
    func withBytes<R>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let range = range(index)
        return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
}

/// Distinct byte strings (order IDs, products, currencies, countries), each stored once in a `ByteArena` and found
/// again by an open-addressing table on a hash of its bytes. Values compare by their bytes: order IDs are ASCII,
/// where that is also how `String` compares them.
struct ByteInterner {
    private(set) var arena = ByteArena()
    /// Value number + 1 per slot, 0 when the slot is free; a power of two long.
    private var slots: [Int32]
    /// The texts, when kept (small sets read back often: currencies, countries, products).
    private var texts: [String] = []
    let keepsText: Bool

    /// An empty interner sized for about `capacity` values; with `keepsText` each value's `String` is kept too.
    init(capacity: Int = 64, keepsText: Bool = false) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: 0, count: size)
        self.keepsText = keepsText
    }

    /// Values interned.
    var count: Int { arena.count }

    /// The number of `value`, interning it first when new.
    mutating func intern(_ value: UnsafeRawBufferPointer) -> Int32 {
        let mask = slots.count - 1
        var slot = Self.hash(value) & mask
        while true {
            let held = slots[slot]
            if held == 0 { break }
            if arena.withBytes(held - 1, { Self.equal($0, value) }) { return held - 1 }
            slot = (slot + 1) & mask
        }
        let index = arena.append(value)
        if keepsText { texts.append(String(decoding: value, as: UTF8.self)) }
        slots[slot] = index + 1
        if arena.count * 2 > slots.count { grow() }
        return index
    }

    /// The number of `text`, interning it first when new.
    mutating func intern(_ text: String) -> Int32 {
        var text = text
        return text.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
    }

    /// The number of `value` when interned.
    func find(_ value: UnsafeRawBufferPointer) -> Int32? {
        let mask = slots.count - 1
        var slot = Self.hash(value) & mask
        while true {
            let held = slots[slot]
            if held == 0 { return nil }
            if arena.withBytes(held - 1, { Self.equal($0, value) }) { return held - 1 }
            slot = (slot + 1) & mask
        }
    }

    /// The number of `text` when interned.
    func find(_ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { find(UnsafeRawBufferPointer($0)) }
    }

    /// Value `index` as text.
    func string(_ index: Int32) -> String {
        keepsText ? texts[Int(index)] : arena.string(index)
    }

    /// Calls `body` with the bytes of value `index`.
    func withBytes<R>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try arena.withBytes(index, body)
    }

    /// Whether value `a`'s bytes sort before value `b`'s (shorter first on a common prefix).
    func less(_ a: Int32, _ b: Int32) -> Bool {
        arena.bytes.withUnsafeBytes { all in
            let x = arena.range(a), y = arena.range(b)
            let common = min(x.count, y.count)
            if common > 0, let base = all.baseAddress {
                let order = memcmp(base + x.lowerBound, base + y.lowerBound, common)
                if order != 0 { return order < 0 }
            }
            return x.count < y.count
        }
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for index in 0..<Int32(arena.count) {
            var slot = arena.withBytes(index) { Self.hash($0) } & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = index + 1
        }
    }

    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return true }
        return memcmp(x, y, a.count) == 0
    }

    /// FNV-1a, 64 bits, folded.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }
}
