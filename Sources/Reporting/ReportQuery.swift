import Foundation
import JobKit
import Postgres

/// Runs a report's SQL with the five parameters of the report contract bound.
public enum ReportQuery {
    /// The parameters for `settings`: `$1` as-of, `$2` first month, `$3` last month, `$4` currency, `$5` basis.
    public static func parameters(_ settings: ReportSettings) -> [any PostgresEncodable] {
        [PostgresTimestamp.format(settings.asOf), settings.firstMonth.startText, settings.lastMonth.startText,
         settings.currency, settings.basis.rawValue]
    }

    /// Runs `sql` and returns its rows. A failing statement fails the run naming the report.
    public static func run(_ name: String, sql: String, settings: ReportSettings, database: PostgresConnection) throws -> ReportTable {
        let result: PostgresResult
        do {
            result = try database.query(sql, parameters(settings))
        } catch let error as PostgresError {
            throw JobError.failed("report \(name): \(error.message)" + (error.sqlState.map { " (SQLSTATE \($0))" } ?? ""))
        }
        let columns = result.columns
        guard Set(columns).count == columns.count else {
            throw JobError.failed("report \(name): two columns share a name; every column needs its own")
        }
        return ReportTable(columns: columns, rows: result.textRows())
    }

    /// Runs `sql` through a cursor and hands its rows to `body` `batchSize` at a time (the columns with every batch),
    /// so a large report is never held whole. Needs an open transaction. A failing statement fails the run naming the report.
    public static func stream(_ name: String, sql: String, settings: ReportSettings, database: PostgresConnection,
                              batchSize: Int = 10_000, _ body: (_ columns: [String], _ rows: [[String?]]) throws -> Void) throws {
        try stream(name, sql: sql, parameters: parameters(settings), database: database, batchSize: batchSize, body)
    }

    /// Runs `sql` with `parameters` through a cursor, as `stream(_:sql:settings:database:batchSize:_:)` does.
    static func stream(_ name: String, sql: String, parameters: [any PostgresEncodable], database: PostgresConnection,
                       batchSize: Int = 10_000, _ body: (_ columns: [String], _ rows: [[String?]]) throws -> Void) throws {
        do {
            try database.execute("DECLARE report_rows NO SCROLL CURSOR FOR " + sql, parameters)
            while true {
                let result = try database.query("FETCH \(batchSize) FROM report_rows")
                let columns = result.columns
                guard Set(columns).count == columns.count else {
                    throw JobError.failed("report \(name): two columns share a name; every column needs its own")
                }
                try body(columns, result.textRows())
                if result.count < batchSize { break }
            }
            try database.execute("CLOSE report_rows")
        } catch let error as PostgresError {
            throw JobError.failed("report \(name): \(error.message)" + (error.sqlState.map { " (SQLSTATE \($0))" } ?? ""))
        }
    }
}
