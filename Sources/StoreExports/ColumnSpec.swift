/// A column a report format knows: its name, the other names it has had, and whether it must be present.
struct ColumnSpec: Sendable {
    /// The name this library uses for the column.
    let name: String
    /// Other header spellings that mean the same column.
    let aliases: [String]
    /// Whether a file without it is rejected.
    let required: Bool
    /// For a column only an older layout the parser does not read has: that layout's name (the file is refused as
    /// `unsupported layout (…)` at the column).
    var retiredLayout: String?

    /// A column that must be present.
    static func required(_ name: String, _ aliases: String...) -> ColumnSpec { ColumnSpec(name: name, aliases: aliases, required: true) }
    /// A column that only some versions carry.
    static func optional(_ name: String, _ aliases: String...) -> ColumnSpec { ColumnSpec(name: name, aliases: aliases, required: false) }
    /// A column of an older layout, `layout`, that is not read: a header holding it is refused.
    static func retired(_ name: String, layout: String) -> ColumnSpec {
        ColumnSpec(name: name, aliases: [], required: false, retiredLayout: layout)
    }
}
