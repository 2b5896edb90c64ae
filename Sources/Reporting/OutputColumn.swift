/// One column of a written report (CSV and sheet alike): where its value comes from and how it is shown.
public struct OutputColumn: Sendable, Equatable {
    /// What the column holds.
    public enum Content: Sendable, Equatable {
        /// The SQL column's value, written by its role.
        case value(ColumnRole)
        /// The decimal amount of a `*_micros` column in the row's currency.
        case amount
        /// The integer micros of a `*_micros` column.
        case micros
    }

    /// The header.
    public var name: String
    /// The SQL column it reads.
    public var source: Int
    /// What it holds.
    public var content: Content

    /// The written columns of a report with SQL `columns`: each `x_micros` becomes `x` (the amount) then `x_micros`.
    public static func layout(_ columns: [String]) -> [OutputColumn] {
        var output: [OutputColumn] = []
        for (index, name) in columns.enumerated() {
            let role = ColumnRole.of(name)
            if role == .micros {
                output.append(OutputColumn(name: ColumnRole.amountName(name), source: index, content: .amount))
                output.append(OutputColumn(name: name, source: index, content: .micros))
            } else {
                output.append(OutputColumn(name: name, source: index, content: .value(role)))
            }
        }
        return output
    }
}
