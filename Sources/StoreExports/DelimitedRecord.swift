/// One record of a delimited file: the line it starts on and its fields (column n is `fields[n - 1]`).
public struct DelimitedRecord: Sendable, Equatable {
    /// 1-based line where the record starts (a quoted field can continue on later lines).
    public let line: Int
    /// The cells, unquoted, untrimmed.
    public let fields: [String]

    /// True when every cell is empty or whitespace (a blank line, `,,,,` or an all-tab line).
    public var isBlank: Bool { fields.allSatisfy { $0.allSatisfy { $0 == " " || $0 == "\t" } } }
}
