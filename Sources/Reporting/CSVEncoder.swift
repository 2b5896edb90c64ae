/// RFC 4180 CSV in UTF-8: CRLF line ends, a field quoted when it holds a comma, quote, CR or LF (quotes doubled),
/// an empty field for NULL, no byte-order mark and no locale formatting.
public struct CSVEncoder {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty document.
    public init() {}

    /// Returns the bytes written so far and starts over with none.
    public mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// Appends one record.
    public mutating func append(_ fields: [String?]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            guard let field else { continue }
            let utf8 = field.utf8
            if utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) {
                bytes.append(0x22)
                for byte in utf8 {
                    if byte == 0x22 { bytes.append(0x22) }
                    bytes.append(byte)
                }
                bytes.append(0x22)
            } else {
                bytes.append(contentsOf: utf8)
            }
        }
        bytes.append(0x0D)
        bytes.append(0x0A)
    }
}
