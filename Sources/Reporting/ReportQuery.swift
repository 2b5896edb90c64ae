import Foundation
import JobKit
import Postgres

/// Runs a report's SQL with its parameters bound the way its catalogue entry says.
public enum ReportQuery {
    /// The parameters of `definition` for `settings`: five for the contract, two for a report written before it.
    public static func parameters(_ binding: ReportDefinition.Binding, _ settings: ReportSettings) -> [any PostgresEncodable] {
        let asOf = PostgresTimestamp.format(settings.asOf)
        switch binding {
        case .contract:
            return [asOf, settings.firstMonth.startText, settings.lastMonth.startText, settings.currency, settings.basis.rawValue]
        case .asOfAndFirstMonth:
            return [asOf, settings.firstMonth.startText]
        }
    }

    /// Runs `sql` and returns its rows; for `.asOfAndFirstMonth` the rows whose `month` is after the last month are
    /// dropped. A failing statement fails the run naming the report.
    public static func run(_ name: String, sql: String, binding: ReportDefinition.Binding, settings: ReportSettings,
                           database: PostgresConnection) throws -> ReportTable {
        let result: PostgresResult
        do {
            result = try database.query(sql, parameters(binding, settings))
        } catch let error as PostgresError {
            throw JobError.failed("report \(name): \(error.message)" + (error.sqlState.map { " (SQLSTATE \($0))" } ?? ""))
        }
        let columns = result.columns
        guard Set(columns).count == columns.count else {
            throw JobError.failed("report \(name): two columns share a name; every column needs its own")
        }
        var rows: [[String?]] = []
        rows.reserveCapacity(result.count)
        for row in result.rows {
            rows.append(try columns.map { try row.decodeIfPresent(String.self, $0) })
        }
        if binding == .asOfAndFirstMonth, let month = columns.firstIndex(of: "month") {
            let last = settings.lastMonth.description
            rows.removeAll { ($0[month] ?? "") > last }
        }
        return ReportTable(columns: columns, rows: rows)
    }
}
