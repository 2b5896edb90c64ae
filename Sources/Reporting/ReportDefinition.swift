/// One report of the catalogue: its SQL file under `Reports/`, its sheet, and its charts. Every report
/// takes the five parameters of the report contract (Reports/README.md).
public struct ReportDefinition: Sendable, Equatable {
    /// The file name without `.sql` (also the CSV's name).
    public var name: String
    /// The sheet's title (at most 31 characters, none of `[]:*?/\`).
    public var sheet: String
    /// One line for the cover sheet: what a row is.
    public var summary: String
    /// A required report whose file is absent fails the run; an optional one is skipped with a note.
    public var required: Bool
    /// The charts drawn on the report's sheet.
    public var charts: [ReportChart]
    /// A detail report (a row per billing account or subscription): its CSV is always written, its workbook sheet
    /// only with `--detail-sheets`, so the workbook a person opens and prints holds the summaries.
    public var detail: Bool
    /// Whether its complete months are stored and reused by later runs (nil: every run computes every month).
    public var reuse: ReportReuse?

    /// Declares a report.
    public init(name: String, sheet: String, summary: String, required: Bool, charts: [ReportChart] = [],
                reuse: ReportReuse? = nil, detail: Bool = false) {
        self.name = name
        self.sheet = sheet
        self.summary = summary
        self.required = required
        self.charts = charts
        self.detail = detail
        self.reuse = reuse
    }

    /// The SQL file's name.
    public var fileName: String { name + ".sql" }
}
