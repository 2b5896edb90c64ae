import Foundation

/// A `text[]` parameter, written in PostgreSQL's array literal syntax with every element quoted.
public struct PostgresTextArray: PostgresEncodable {
    public let elements: [String]

    /// Wraps the elements.
    public init(_ elements: [String]) { self.elements = elements }

    public var postgresParameter: PostgresParameter {
        let quoted = elements.map { element in
            "\"" + element.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return .string("{" + quoted.joined(separator: ",") + "}")
    }
}
