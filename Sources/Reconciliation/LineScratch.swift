/// Bytes of the items CSV built in memory of their own (a raw buffer that grows and is never shrunk): a chunk's
/// lines, or one field being built. Short pieces — every field of a matched line is under 128 bytes — are copied
/// a word at a time in place instead of through a call to `memmove`, and room is checked once per piece.
final class LineScratch {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes written.
    private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes.
    init(capacity: Int = 1_024) {
        self.capacity = max(16, capacity)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit { base.deallocate() }

    /// The bytes written so far.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// The bytes written so far, as an array.
    var array: [UInt8] { Array(bytes) }

    /// Forgets what was written.
    func clear() { count = 0 }

    /// Room for `extra` more bytes.
    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private func grow(_ needed: Int) {
        var grown = capacity * 2
        while needed > grown { grown *= 2 }
        let next = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        next.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = next
        capacity = grown
    }

    /// Appends one byte.
    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Appends `bytes` as they are.
    @inline(__always)
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        let length = bytes.count
        reserve(length)
        let target = base + count
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
        count += length
    }

    /// Appends `bytes` as they are.
    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends `number` in decimal (`ReconciliationCSV.writeNumber`), written in place.
    @inline(__always)
    func appendNumber(_ number: Int64) {
        reserve(20)
        count += ReconciliationCSV.writeNumber(number, at: base + count)
    }

    /// Appends a field's UTF-8 bytes, quoted when they hold a comma, quote or line break
    /// (`ReconciliationCSV.appendField`).
    func appendField(_ utf8: UnsafeRawBufferPointer) {
        var line = self
        ReconciliationCSV.appendField(utf8, to: &line)
    }
}

extension LineScratch: CSVByteSink {
    func appendByte(_ byte: UInt8) { append(byte) }
    func appendBytes(_ bytes: UnsafeRawBufferPointer) { append(bytes) }
}
