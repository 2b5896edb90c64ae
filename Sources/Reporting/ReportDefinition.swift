/// One report of the catalogue: its SQL file under `Reports/`, its sheet, its charts and how it is bound.
public struct ReportDefinition: Sendable, Equatable {
    /// How the report's `$n` parameters are bound.
    public enum Binding: Sendable, Equatable {
        /// The report contract: `$1` as-of, `$2` first month, `$3` last month, `$4` currency, `$5` basis.
        case contract
        /// `$1` as-of and `$2` first month only (a report written before the contract; it always runs to the as-of
        /// month, so the job drops the rows whose `month` is after the last month reported).
        case asOfAndFirstMonth
    }

    /// The file name without `.sql` (also the CSV's name).
    public var name: String
    /// The sheet's title (at most 31 characters, none of `[]:*?/\`).
    public var sheet: String
    /// One line for the cover sheet: what a row is.
    public var summary: String
    /// A required report whose file is absent fails the run; an optional one is skipped with a note.
    public var required: Bool
    /// How parameters are bound.
    public var binding: Binding
    /// The charts drawn on the report's sheet.
    public var charts: [ReportChart]

    /// Declares a report.
    public init(name: String, sheet: String, summary: String, required: Bool, binding: Binding = .contract, charts: [ReportChart] = []) {
        self.name = name
        self.sheet = sheet
        self.summary = summary
        self.required = required
        self.binding = binding
        self.charts = charts
    }

    /// The SQL file's name.
    public var fileName: String { name + ".sql" }
}
