/// Bytes built in memory of their own (a raw buffer that grows and is never shrunk): a chunk of CSV lines, or one
/// field being built. Short pieces — every field of a matched line is under 128 bytes — are copied
/// a word at a time in place instead of through a call to `memmove`, and room is checked once per piece.
public final class LineScratch {
    @usableFromInline var base: UnsafeMutableRawPointer
    @usableFromInline var capacity: Int
    /// Bytes written.
    @usableFromInline var used = 0

    /// An empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 1_024) {
        self.capacity = max(16, capacity)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit { base.deallocate() }

    /// Bytes written.
    @inlinable public var count: Int { used }

    /// The bytes written so far.
    @inlinable public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: used) }

    /// The bytes written so far, as an array.
    public var array: [UInt8] { Array(bytes) }

    /// Forgets what was written.
    public func clear() { used = 0 }

    /// Room for `extra` more bytes.
    @inlinable @inline(__always)
    public func reserve(_ extra: Int) {
        if used + extra > capacity { grow(used + extra) }
    }

    @usableFromInline func grow(_ needed: Int) {
        var grown = capacity * 2
        while needed > grown { grown *= 2 }
        let next = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        next.copyMemory(from: base, byteCount: used)
        base.deallocate()
        base = next
        capacity = grown
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    public func append(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: used, as: UInt8.self)
        used += 1
    }

    /// Appends `bytes` as they are.
    @inlinable @inline(__always)
    public func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        let length = bytes.count
        reserve(length)
        let target = base + used
        if length >= 8, length <= 128 {
            // Words from the front and one ending at the last byte (overlapping the one before it).
            var offset = 0
            while offset + 8 < length {
                target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self), toByteOffset: length - 8, as: UInt64.self)
        } else if length < 8 {
            for offset in 0..<length {
                target.storeBytes(of: source.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset, as: UInt8.self)
            }
        } else {
            target.copyMemory(from: source, byteCount: length)
        }
        used += length
    }

    /// Appends `bytes` as they are.
    @inlinable
    public func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends `number` in decimal, as `String(number)` spells it (`writeDecimal`), written in place.
    @inlinable @inline(__always)
    public func appendNumber(_ number: Int64) {
        reserve(20)
        used += Self.writeDecimal(number, at: base + used)
    }

    /// Writes `number` in decimal at `target` (room for 20 bytes: a sign and at most 19 digits) and returns the
    /// bytes written: the digits counted first, then written from the last.
    @inlinable @inline(__always)
    public static func writeDecimal(_ number: Int64, at target: UnsafeMutableRawPointer) -> Int {
        var magnitude = number.magnitude
        var digits = 1
        var bound: UInt64 = 10
        while digits < 19, magnitude >= bound {
            digits += 1
            bound &*= 10
        }
        let length = digits + (number < 0 ? 1 : 0)
        var at = length
        repeat {
            at -= 1
            target.storeBytes(of: UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30, toByteOffset: at, as: UInt8.self)
            magnitude /= 10
        } while magnitude > 0
        if number < 0 { target.storeBytes(of: 0x2D, toByteOffset: 0, as: UInt8.self) }
        return length
    }
}
