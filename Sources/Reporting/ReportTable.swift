/// The rows one report returned, as the server's text (nil for NULL), in the SQL's order.
public struct ReportTable: Sendable {
    /// The SQL's column names, in order.
    public var columns: [String]
    /// One array of values per row, aligned with `columns`.
    public var rows: [[String?]]

    /// A table of `columns` and `rows`.
    public init(columns: [String], rows: [[String?]]) {
        self.columns = columns
        self.rows = rows
    }

    /// The position of column `name`, if the report has it.
    public func index(of name: String) -> Int? { columns.firstIndex(of: name) }
}
