import BillingCore

/// Where each known column sits in a file, resolved from its header row by name. Unknown,
/// duplicate and missing columns reject the file.
struct HeaderLayout: Sendable {
    /// Field index of each present column, keyed by `ColumnSpec.name`.
    let positions: [String: Int]
    /// Number of fields in a data row.
    let width: Int
    /// Number of named columns (the rest, if any, are trailing empty ones).
    let named: Int
    /// Line of the header row.
    let line: Int

    /// Resolves `header` against `specs`. Empty header cells are accepted only after the last named
    /// column when `trailingEmpty` is set (lines that end with a separator).
    init(header: DelimitedRecord, specs: [ColumnSpec], file: String, trailingEmpty: Bool = false) throws {
        var lookup: [String: String] = [:]
        for spec in specs {
            lookup[spec.name.lowercased()] = spec.name
            for alias in spec.aliases { lookup[alias.lowercased()] = spec.name }
        }
        var names = header.fields.map { $0.trimmingSpaces }
        if trailingEmpty {
            while let last = names.last, last.isEmpty, names.count > 1 { names.removeLast() }
        }
        for (index, name) in names.enumerated() {
            guard let spec = specs.first(where: { $0.name.lowercased() == name.lowercased() }), let layout = spec.retiredLayout else { continue }
            throw StoreReportError(file: file, line: header.line, column: index + 1,
                                   reason: "unsupported layout (\(layout)): '\(spec.name)' is a column of that layout, which is not imported")
        }
        var positions: [String: Int] = [:]
        let present = Set(names.compactMap { lookup[$0.lowercased()] })
        let missing = specs.filter { $0.required && !present.contains($0.name) }.map { "'\($0.name)'" }
        for (index, name) in names.enumerated() {
            guard let canonical = lookup[name.lowercased()] else {
                let hint = missing.isEmpty ? "" : "; missing " + missing.joined(separator: ", ")
                let shown = name.isEmpty ? "an empty column name" : "unexpected column '\(Redaction.excerpt(name))'"
                throw StoreReportError(file: file, line: header.line, column: index + 1, reason: shown + hint)
            }
            if let earlier = positions[canonical] {
                throw StoreReportError(file: file, line: header.line, column: index + 1,
                                       reason: "duplicate column '\(Redaction.excerpt(name))' (same as column \(earlier + 1))")
            }
            positions[canonical] = index
        }
        if let first = missing.first {
            throw StoreReportError(file: file, line: header.line, column: names.count + 1,
                                   reason: "missing column \(first)" + (missing.count > 1 ? " (and \(missing.count - 1) more)" : ""))
        }
        self.positions = positions
        self.width = header.fields.count
        self.named = names.count
        self.line = header.line
    }

    /// Whether the file carries this column.
    func has(_ name: String) -> Bool { positions[name] != nil }
}

extension String {
    /// The text without leading and trailing spaces and tabs (single-space cells become empty).
    var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return slice.count == count ? self : String(slice)
    }
}
