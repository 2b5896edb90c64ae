import Foundation

/// A `text[]` parameter, written in PostgreSQL's array literal syntax with every element quoted; a nil element is NULL.
public struct PostgresTextArray: PostgresEncodable {
    public let elements: [String?]

    /// Wraps the elements.
    public init(_ elements: [String]) { self.elements = elements }

    /// Wraps elements that may be NULL.
    public init(_ elements: [String?]) { self.elements = elements }

    public var postgresParameter: PostgresParameter {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(elements.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            guard let element else { bytes.append(contentsOf: "NULL".utf8); continue }
            bytes.append(UInt8(ascii: "\""))
            for byte in element.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        return .text(bytes)
    }
}
