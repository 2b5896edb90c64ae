/// Reads the messages of `COPY (…) TO STDOUT (FORMAT binary)` (`PostgresConnection.copyOutMessages`), as the
/// PostgreSQL documentation defines the format: an 11-byte signature, a 32-bit flags field and a header extension
/// (its length, then its bytes) before the first tuple; each tuple a 16-bit field count, then per field a 32-bit
/// length (-1: NULL) and its bytes; a field count of -1 as the trailer. Integers are in network byte order. No
/// field is escaped: text arrives as its bytes, numbers and timestamps as integers, so the server formats nothing.
public struct BinaryCopyReader {
    /// `PGCOPY\n\377\r\n\0`.
    static let signature: [UInt8] = [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00]
    private var headerRead = false
    /// Whether the trailer was read.
    public private(set) var ended = false
    /// The current tuple's fields as ranges of its message (nil: NULL).
    public private(set) var fields: [Range<Int>?] = []

    /// A reader before the first message.
    public init() {}

    /// A reader of tuple messages alone, the header read elsewhere (`BinaryCopySorter`'s output).
    public static func afterHeader() -> BinaryCopyReader {
        var reader = BinaryCopyReader()
        reader.headerRead = true
        return reader
    }

    /// Reads `message`: true when it holds a tuple (its fields are then in `fields`); false for a header that came
    /// alone or the trailer (then `ended`). Throws when the message is not what the format says.
    public mutating func read(_ message: UnsafeRawBufferPointer) throws -> Bool {
        var at = 0
        func fail(_ reason: String) -> PostgresError {
            PostgresError(.copy, message: "binary COPY: \(reason) at byte \(at) of a \(message.count)-byte message")
        }
        func integer<T: FixedWidthInteger>(_: T.Type) throws -> T {
            guard at + MemoryLayout<T>.size <= message.count else { throw fail("message ends inside a number") }
            defer { at += MemoryLayout<T>.size }
            return T(bigEndian: message.loadUnaligned(fromByteOffset: at, as: T.self))
        }
        guard !ended else { throw fail("data after the trailer") }
        if !headerRead {
            guard message.count >= Self.signature.count, message.starts(with: Self.signature) else { throw fail("no PGCOPY signature") }
            at = Self.signature.count
            let flags = try integer(UInt32.self)
            guard flags & 0x0001_0000 == 0 else { throw fail("OIDs included") }
            let extensionLength = Int(try integer(UInt32.self))
            guard at + extensionLength <= message.count else { throw fail("header extension longer than the message") }
            at += extensionLength
            headerRead = true
            // The header may come alone.
            if at == message.count {
                fields.removeAll(keepingCapacity: true)
                return false
            }
        }
        let count = Int(try integer(Int16.self))
        if count == -1 {
            guard at == message.count else { throw fail("bytes after the trailer") }
            ended = true
            return false
        }
        guard count >= 0 else { throw fail("negative field count \(count)") }
        fields.removeAll(keepingCapacity: true)
        for _ in 0..<count {
            let length = Int(try integer(Int32.self))
            if length == -1 {
                fields.append(nil)
                continue
            }
            guard length >= 0, at + length <= message.count else { throw fail("field of \(length) bytes past the message's end") }
            fields.append(at..<(at + length))
            at += length
        }
        guard at == message.count else { throw fail("\(message.count - at) bytes after the last field") }
        return true
    }

    /// A big-endian 64-bit integer field (`int8`, or a `timestamptz`'s microseconds).
    public static func int64(_ message: UnsafeRawBufferPointer, _ field: Range<Int>) -> Int64? {
        guard field.count == 8 else { return nil }
        return Int64(bigEndian: message.loadUnaligned(fromByteOffset: field.lowerBound, as: Int64.self))
    }

    /// A `timestamptz` (microseconds since 2000-01-01 00:00 UTC) as whole epoch seconds, rounded as
    /// `extract(epoch FROM t)::int8` rounds: to the nearest second, halves away from zero. Nil for ±infinity.
    public static func epochSeconds(postgresMicroseconds micros: Int64) -> Int64? {
        guard micros != .max, micros != .min else { return nil }
        let (unix, overflow) = micros.addingReportingOverflow(946_684_800_000_000)
        guard !overflow else { return nil }
        let magnitude = (unix.magnitude + 500_000) / 1_000_000
        return unix < 0 ? -Int64(magnitude) : Int64(magnitude)
    }
}
