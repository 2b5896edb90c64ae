import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte strings kept end to end in blocks (1 MiB by default), each after its length (7 bits a byte), numbered from 0
/// in order of arrival: a million order IDs or transaction keys as a few blocks instead of a million `String`s, no
/// block ever copied to grow, and a value read with one look-up of where it is. The blocks are raw memory
/// (`RawBlocks`, shared by copies until one changes): a read touches no reference count.
public struct ByteArena {
    /// Bytes per block (a longer value has a block of its own).
    public let blockSize: Int
    @usableFromInline var owner = RawBlocks(alignment: 16)
    /// `owner.table`, kept here so a read touches no class.
    @usableFromInline var table: UnsafeMutablePointer<UnsafeMutableRawPointer>
    /// Bytes used and held by the last block.
    private var used = 0, size = 0
    /// Where each value's length is: block << 32 | offset in the block.
    @usableFromInline var places = BlockArray<Int>()

    /// An empty arena of `blockSize`-byte blocks.
    public init(blockSize: Int = 1 << 20) {
        self.blockSize = blockSize
        table = owner.table
    }

    /// Values stored.
    @inlinable public var count: Int { places.count }

    /// Stores `value`; returns its number.
    @discardableResult
    public mutating func append(_ value: UnsafeRawBufferPointer) -> Int32 {
        if !isKnownUniquelyReferenced(&owner) {
            owner = owner.copy()
            table = owner.table
        }
        let needed = value.count + 10
        if owner.count == 0 || used + needed > size {
            size = max(blockSize, needed)
            _ = owner.add(bytes: size)
            table = owner.table
            used = 0
        }
        let last = owner.count - 1
        places.append(last << 32 | used)
        let block = table[last]
        var length = UInt(value.count)
        while length >= 0x80 {
            block.storeBytes(of: UInt8(truncatingIfNeeded: length) | 0x80, toByteOffset: used, as: UInt8.self)
            used += 1
            length >>= 7
        }
        block.storeBytes(of: UInt8(length), toByteOffset: used, as: UInt8.self)
        used += 1
        if let source = value.baseAddress, !value.isEmpty { (block + used).copyMemory(from: source, byteCount: value.count) }
        used += value.count
        return Int32(places.count - 1)
    }

    /// Value `index` as text.
    public func string(_ index: Int32) -> String {
        withBytes(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// The first byte stored for value `index` (its length's first byte): a read that brings the value into cache.
    @inlinable
    public func firstByte(_ index: Int32) -> Int32 {
        let place = places[Int(index)]
        return Int32(UnsafeRawPointer(table[place >> 32]).load(fromByteOffset: place & 0xFFFF_FFFF, as: UInt8.self))
    }

    /// The bytes of value `index`, valid while this arena is neither changed nor gone.
    @inlinable @inline(__always)
    public func bytes(_ index: Int32) -> UnsafeRawBufferPointer {
        let place = places[Int(index)]
        let block = UnsafeRawPointer(table[place >> 32])
        var offset = place & 0xFFFF_FFFF
        var length = 0
        var shift = 0
        while true {
            let byte = block.load(fromByteOffset: offset, as: UInt8.self)
            offset += 1
            length |= Int(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return UnsafeRawBufferPointer(start: block + offset, count: length)
    }

    /// Calls `body` with the bytes of value `index`.
    @inlinable
    public func withBytes<R>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(owner) { try body(bytes(index)) }
    }
}

/// Distinct byte strings (order IDs, products, currencies, countries), each stored once in a `ByteArena` and found
/// again by an open-addressing table on a hash of its bytes. Values compare by their bytes: order IDs are ASCII,
/// where that is also how `String` compares them.
public struct ByteInterner {
    /// The values, numbered in order of arrival.
    public private(set) var arena: ByteArena
    /// Value number + 1 per slot, 0 when the slot is free; a power of two long.
    @usableFromInline var slots: [Int32]
    /// The texts, when kept (small sets read back often: currencies, countries, products).
    @usableFromInline var texts: [String] = []
    /// Whether each value's `String` is kept.
    public let keepsText: Bool

    /// An empty interner sized for about `capacity` values; with `keepsText` each value's `String` is kept too.
    public init(capacity: Int = 64, keepsText: Bool = false, blockSize: Int = 1 << 20) {
        arena = ByteArena(blockSize: blockSize)
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: 0, count: size)
        self.keepsText = keepsText
    }

    /// Values interned.
    @inlinable public var count: Int { arena.count }

    /// Values of at most 8 bytes recently interned, by a hash of their word: (word, length + 1 << 32 | number).
    private var recent = [(UInt64, UInt64)](repeating: (0, 0), count: 256)

    /// The number of `value`, interning it first when new.
    public mutating func intern(_ value: UnsafeRawBufferPointer) -> Int32 {
        guard value.count <= 8 else { return internInTable(value) }
        var word: UInt64 = 0
        for index in 0..<value.count { word |= UInt64(value[index]) << (8 * UInt64(index)) }
        let line = Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> 56)
        let tag = UInt64(value.count + 1) << 32
        let (held, entry) = recent[line]
        if held == word, entry >> 32 == tag >> 32 { return Int32(truncatingIfNeeded: entry & 0xFFFF_FFFF) }
        let number = internInTable(value)
        recent[line] = (word, tag | UInt64(UInt32(number)))
        return number
    }

    /// Interns the values at `ranges` of `bytes` in order, as `intern(_:)` one at a time would, appending their numbers
    /// to `numbers`. The batch's table slots are read first, then the values they hold, then each value is looked up:
    /// the cache misses of a million look-ups in a table of a million overlap instead of following one another.
    public mutating func intern(_ bytes: UnsafeRawBufferPointer, ranges: [Range<Int>], into numbers: inout [Int32]) {
        // Windows of `window` values: enough look-ups in flight to overlap, few enough that what was read ahead is
        // still in the nearest caches when it is used.
        let window = 32
        var hashes = [Int](repeating: 0, count: window)
        var touched: Int32 = 0
        var first = 0
        while first < ranges.count {
            let last = Swift.min(first + window, ranges.count)
            slots.withUnsafeBufferPointer { table in
                let mask = table.count - 1
                for index in first..<last {
                    let hash = Self.hash(UnsafeRawBufferPointer(rebasing: bytes[ranges[index]]))
                    hashes[index - first] = hash
                    touched &+= table[hash & mask]
                }
            }
            let mask = slots.count - 1
            for index in first..<last {
                let held = slots[hashes[index - first] & mask]
                if held != 0 { touched &+= arena.firstByte(held - 1) }
            }
            for index in first..<last {
                let value = UnsafeRawBufferPointer(rebasing: bytes[ranges[index]])
                numbers.append(value.count <= 8 ? intern(value) : internInTable(value, hash: hashes[index - first]))
            }
            first = last
        }
        self.touched &+= touched
    }

    /// What the batch look-ups read ahead (kept so that the reads are not left out as unused).
    private var touched: Int32 = 0

    private mutating func internInTable(_ value: UnsafeRawBufferPointer, hash: Int? = nil) -> Int32 {
        let mask = slots.count - 1
        var slot = (hash ?? Self.hash(value)) & mask
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
    public mutating func intern(_ text: String) -> Int32 {
        var text = text
        return text.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
    }

    /// Frees the look-up table: the values and their numbers stay, but `find` and `intern` may no longer be called.
    public mutating func releaseTable() {
        slots = []
        recent = []
    }

    /// The number of `value` when interned.
    @inlinable
    public func find(_ value: UnsafeRawBufferPointer) -> Int32? {
        precondition(!slots.isEmpty, "find after releaseTable()")
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
    public func find(_ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { find(UnsafeRawBufferPointer($0)) }
    }

    /// Value `index` as text.
    @inlinable
    public func string(_ index: Int32) -> String {
        keepsText ? texts[Int(index)] : arena.string(index)
    }

    /// Calls `body` with the bytes of value `index`.
    @inlinable
    public func withBytes<R>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try arena.withBytes(index, body)
    }

    /// Whether value `a`'s bytes sort before value `b`'s (shorter first on a common prefix).
    @inlinable
    public func less(_ a: Int32, _ b: Int32) -> Bool {
        arena.withBytes(a) { x in arena.withBytes(b) { y in Self.compare(x, y) < 0 } }
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

    /// The order of two byte strings as `COLLATE "C"` sorts them: negative when `a` comes first, zero when they are
    /// equal, positive after (byte by byte, a prefix before the longer string).
    @inlinable
    public static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let x = a.baseAddress, let y = b.baseAddress {
            let order = memcmp(x, y, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }

    /// Whether two byte strings are equal.
    @inlinable
    public static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return true }
        return memcmp(x, y, a.count) == 0
    }

    /// A hash of `bytes`: eight bytes at a time, multiplied and folded, then mixed.
    @inlinable
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var index = 0
        while index + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count {
            tail |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        // MurmurHash3's finaliser: every bit of the words reaches the low bits the table uses.
        hash ^= tail
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        hash &*= 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash)
    }
}
