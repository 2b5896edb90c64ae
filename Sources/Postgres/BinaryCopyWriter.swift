/// Writes rows for `COPY … FROM STDIN (FORMAT binary)` (`PostgresConnection.copyIn`), the format
/// `BinaryCopyReader` reads: the signature, flags and an empty header extension once, then per tuple a 16-bit field
/// count and per field a 32-bit length (-1: NULL) and its bytes, integers in network byte order; the trailer at
/// `finish`. The server parses no text: numbers, dates and timestamps arrive as the integers it stores.
public struct BinaryCopyWriter {
    /// The bytes to send (grown only for a tuple larger than what is left after `flushAt`).
    private var buffer: BinaryCopyTuples
    private let copy: PostgresCopyIn
    private static let flushAt = 1 << 20

    /// A writer sending through `copy`; writes the file header.
    public init(_ copy: PostgresCopyIn) {
        self.copy = copy
        buffer = BinaryCopyTuples(capacity: Self.flushAt + (1 << 16))
        buffer.fileHeader()
    }

    /// Starts a tuple of `fields` fields (sending the buffer when it is full).
    public mutating func beginRow(fields: Int) throws {
        if buffer.count >= Self.flushAt { try send() }
        buffer.beginRow(fields: fields)
    }

    /// A NULL field.
    public mutating func null() { buffer.null() }

    /// An `int4` field.
    public mutating func int32(_ value: Int32) { buffer.int32(value) }

    /// An `int8` field.
    public mutating func int64(_ value: Int64) { buffer.int64(value) }

    /// A `text` (or `char(n)`, `varchar`) field: its UTF-8 bytes.
    public mutating func text(_ value: String) { buffer.text(value) }

    /// A `text` field of UTF-8 bytes (or any field of its binary form, made by the caller: `numericField`).
    public mutating func text(_ bytes: UnsafeRawBufferPointer) { buffer.text(bytes) }

    /// A `date` field from days since 1970-01-01 (the server counts from 2000-01-01).
    public mutating func date(daysSince1970 days: Int) {
        int32(Int32(days - 10_957))
    }

    /// A `timestamptz` field from whole epoch seconds (the server stores microseconds since 2000-01-01 UTC).
    public mutating func timestamp(epochSeconds seconds: Int64) { buffer.timestamp(epochSeconds: seconds) }

    /// A `numeric` field of `unscaled` × 10^-`scale`, its display scale `scale` (as the text `1.0800` keeps four
    /// decimals): base-10000 digits around the decimal point, leading and trailing zero digits left out.
    public mutating func numeric(unscaled: Int64, scale: Int) {
        Self.numericField(unscaled: unscaled, scale: scale).withUnsafeBytes { text($0) }
    }

    /// The binary form of a `numeric` field (`numeric`), for a caller that writes one value many times.
    public static func numericField(unscaled: Int64, scale: Int) -> [UInt8] {
        var decimals = String(unscaled.magnitude).utf8.map { Int($0) - 48 }
        while decimals.count <= scale { decimals.insert(0, at: 0) }
        let integerDigits = decimals.count - scale
        // Pad the integer part on the left and the fraction on the right to whole groups of four.
        let left = (4 - integerDigits % 4) % 4
        decimals = [Int](repeating: 0, count: left) + decimals
        decimals += [Int](repeating: 0, count: (4 - scale % 4) % 4)
        var groups: [Int16] = []
        for start in stride(from: 0, to: decimals.count, by: 4) {
            var group = 0
            for digit in decimals[start..<(start + 4)] { group = group * 10 + digit }
            groups.append(Int16(group))
        }
        var weight = (left + integerDigits) / 4 - 1
        while let first = groups.first, first == 0 { groups.removeFirst(); weight -= 1 }
        while let last = groups.last, last == 0 { groups.removeLast() }
        if groups.isEmpty { weight = 0 }
        var field: [UInt8] = []
        func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.bigEndian) { field.append(contentsOf: $0) } }
        put(Int16(groups.count))
        put(Int16(weight))
        put(UInt16(unscaled < 0 && !groups.isEmpty ? 0x4000 : 0))
        put(Int16(scale))
        for group in groups { put(group) }
        return field
    }

    /// Writes the trailer and sends what is buffered.
    public mutating func finish() throws {
        buffer.append(Int16(-1))
        try send()
    }

    /// Sends `tuples`, encoded apart (`BinaryCopyTuples`, e.g. on another thread), after what is buffered.
    public mutating func tuples(_ tuples: UnsafeRawBufferPointer) throws {
        if buffer.count > 0 { try send() }
        try copy.writeRaw(tuples)
    }

    private mutating func send() throws {
        try buffer.withBytes { try copy.writeRaw($0) }
        buffer.removeAll()
    }
}
