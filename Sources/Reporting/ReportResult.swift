/// What one report produced: its row count, the hashes the cover sheet lists and the notes on skipped charts.
struct ReportResult {
    let definition: ReportDefinition
    let rows: Int
    let sqlSHA256: String
    let csvSHA256: String
    let truncatedInSheet: Bool
    var notes: [String]
}
