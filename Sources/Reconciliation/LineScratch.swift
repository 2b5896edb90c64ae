/// A line of the items CSV built in memory of its own (a raw buffer that grows and is never shrunk) and appended to
/// the file's buffer at once: a matched line's twenty fields cost one copy instead of twenty appends to an array,
/// each with its checks.
final class LineScratch {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes written.
    private(set) var count = 0

    /// An empty line with room for `capacity` bytes.
    init(capacity: Int = 1_024) {
        self.capacity = capacity
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
    }

    deinit { base.deallocate() }

    /// The bytes written so far.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Forgets what was written.
    func clear() { count = 0 }

    private func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        var grown = capacity * 2
        while count + extra > grown { grown *= 2 }
        let next = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        next.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = next
        capacity = grown
    }

    /// Appends one byte.
    func append(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Appends `bytes` as they are.
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends `bytes` as they are.
    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends `number` in decimal (`ReconciliationCSV.appendNumber`).
    func appendNumber(_ number: Int64) {
        var line = self
        ReconciliationCSV.appendNumber(number, to: &line)
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
