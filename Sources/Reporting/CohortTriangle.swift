import JobKit
import XLSX

/// The Cohorts sheet: the `cohorts` report's long rows (one per cohort and month since start, as its CSV keeps them)
/// pivoted into triangles, one block per measure: subscriber retention, then revenue retention, then realised LTV to
/// date. A row is one cohort (start month, provider, currency) with its size; the column `month k` holds the cohort's
/// value k months after its start month, empty where that month has not come yet. Every value is the CSV's cell (the
/// same rounding), only moved (Reports/README.md, "Workbook").
struct CohortTriangle {
    /// The report it pivots.
    static let report = "cohorts"
    /// The measures, in block order: the name written in the `measure` column and the written column it copies.
    static let measures: [(name: String, column: String)] = [
        ("subscriber retention", "subscriber_retention_rate"),
        ("revenue retention", "revenue_retention_rate"),
        ("LTV to date", "ltv"),
    ]
    /// The columns naming a cohort, then its size, in the sheet's order.
    static let keys = ["cohort_month", "provider", "currency", "cohort_subscribers"]

    /// The header: the cohort's columns, `measure`, then `month 0` … `month n`.
    let header: [String]
    /// The rows under it, measure by measure, cohorts in the report's order.
    let rows: [[Cell]]

    /// The triangles of the report's `table` (its rows as the server returned them) written by `formatter`.
    init(table: ReportTable, formatter: ReportFormatter) throws {
        func written(_ name: String) throws -> Int {
            guard let index = formatter.columns.firstIndex(where: { $0.name == name }) else {
                throw JobError.failed("report \(Self.report): no column \(name) to pivot into the Cohorts sheet")
            }
            return index
        }
        let keyAt = try Self.keys.map(written), measureAt = try Self.measures.map { try written($0.column) }
        let sinceAt = try written("months_since_start")
        var cohorts: [(key: [Cell], values: [[Int: Cell]])] = []
        var last: [String?] = []
        var widest = -1
        for (number, row) in table.rows.enumerated() {
            let cells = try formatter.format(row, rowNumber: number + 1)
            guard let since = cells[sinceAt].csv.flatMap({ Int($0) }), since >= 0 else {
                throw JobError.failed("report \(Self.report) row \(number + 1): months_since_start is not a whole number ≥ 0")
            }
            let identity = keyAt.map { cells[$0].csv }
            if identity != last {
                cohorts.append((keyAt.map { cells[$0].cell }, Self.measures.map { _ in [:] }))
                last = identity
            }
            for (measure, at) in measureAt.enumerated() { cohorts[cohorts.count - 1].values[measure][since] = cells[at].cell }
            widest = max(widest, since)
        }
        header = Self.keys + ["measure"] + (0...max(0, widest)).map { "month \($0)" }
        rows = Self.measures.indices.flatMap { measure in
            cohorts.map { cohort in
                cohort.key + [.text(Self.measures[measure].name)] + (0...max(0, widest)).map { cohort.values[measure][$0] ?? .empty }
            }
        }
    }
}
