/// A column a report format knows: its name, the other names it has had, and whether it must be present.
struct ColumnSpec: Sendable {
    /// The name this library uses for the column.
    let name: String
    /// Other header spellings that mean the same column.
    let aliases: [String]
    /// Whether a file without it is rejected.
    let required: Bool

    /// A column that must be present.
    static func required(_ name: String, _ aliases: String...) -> ColumnSpec { ColumnSpec(name: name, aliases: aliases, required: true) }
    /// A column that only some versions carry.
    static func optional(_ name: String, _ aliases: String...) -> ColumnSpec { ColumnSpec(name: name, aliases: aliases, required: false) }
}
