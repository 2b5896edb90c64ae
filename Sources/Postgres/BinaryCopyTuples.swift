/// Tuples of `COPY … FROM STDIN (FORMAT binary)` encoded into a byte buffer of their own, without a connection: a
/// thread can encode them while another sends them (`BinaryCopyWriter.tuples`). Per tuple a 16-bit field count and
/// per field a 32-bit length (-1: NULL) and its bytes, integers in network byte order. The storage is kept across
/// `removeAll`, so a buffer reused batch after batch allocates once.
public struct BinaryCopyTuples {
    /// The encoded bytes are `storage[0..<count]`.
    private var storage: [UInt8]
    /// Bytes encoded.
    public private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes before it grows.
    public init(capacity: Int = 1 << 16) {
        storage = [UInt8](repeating: 0, count: Swift.max(capacity, 64))
    }

    /// The file header: the signature, flags and an empty header extension (once, before the first tuple).
    public mutating func fileHeader() {
        BinaryCopyReader.signature.withUnsafeBytes { put($0) }
        append(UInt32(0))
        append(UInt32(0))
    }

    /// Starts a tuple of `fields` fields.
    public mutating func beginRow(fields: Int) { append(Int16(fields)) }

    /// A NULL field.
    public mutating func null() { append(Int32(-1)) }

    /// An `int4` field.
    public mutating func int32(_ value: Int32) {
        append(Int32(4))
        append(value)
    }

    /// An `int8` field.
    public mutating func int64(_ value: Int64) {
        append(Int32(8))
        append(value)
    }

    /// A `text` (or `char(n)`, `varchar`) field: its UTF-8 bytes.
    public mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { text(UnsafeRawBufferPointer($0)) }
    }

    /// A `text` field of UTF-8 bytes (or any field of its binary form, made by the caller).
    public mutating func text(_ bytes: UnsafeRawBufferPointer) {
        append(Int32(bytes.count))
        put(bytes)
    }

    /// A `timestamptz` field from whole epoch seconds (the server stores microseconds since 2000-01-01 UTC).
    public mutating func timestamp(epochSeconds seconds: Int64) {
        int64((seconds - 946_684_800) * 1_000_000)
    }

    /// Forgets the bytes encoded, keeping the storage.
    public mutating func removeAll() { count = 0 }

    /// Lends the bytes encoded.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let used = count
        return try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<used])) }
    }

    /// Appends `value` in network byte order (stored in place: no copy call for a few bytes).
    public mutating func append<T: FixedWidthInteger>(_ value: T) {
        let size = MemoryLayout<T>.size
        reserve(size)
        let at = count
        storage.withUnsafeMutableBytes { $0.storeBytes(of: value.bigEndian, toByteOffset: at, as: T.self) }
        count += size
    }

    /// Makes room for `size` more bytes.
    private mutating func reserve(_ size: Int) {
        if count + size > storage.count { storage.append(contentsOf: repeatElement(0, count: Swift.max(size, storage.count))) }
    }

    /// Appends `bytes` as they are.
    public mutating func put(_ bytes: UnsafeRawBufferPointer) {
        let size = bytes.count
        reserve(size)
        guard let source = bytes.baseAddress, size > 0 else { return }
        let at = count
        storage.withUnsafeMutableBytes { target in
            target.baseAddress.map { $0.advanced(by: at).copyMemory(from: source, byteCount: size) }
        }
        count += size
    }
}
