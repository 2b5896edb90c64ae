import Foundation
import JobKit
import Postgres

/// One report's rows in a run: the stored rows of its reused months (`StoredMonths`), then what its SQL computes from
/// the first month it computes, recorded month by month for the store (a report of cells: `MonthCells`). Without stored
/// months this is the SQL's rows.
enum ReportRows {
    /// Hands the rows to `consume` (a streamed report batch by batch; a `whole` one, which charts or the cover read, at
    /// once) and returns the whole table when `whole`. The queries run on `database` (the job's session, or the late
    /// session with `stored` bound to it: `LateReports`); what the summary gains goes to `tally`. A streamed (not
    /// `whole`) report whose file is its CSV alone passes `lines`, which appends CSV lines as they are: its reused months' stored lines
    /// are handed there when every one has them (`StoredMonths.replayCSV`; after `consume` got the columns and no
    /// row), and its recorded months' lines are stored.
    static func read(_ definition: ReportDefinition, sql: String, settings: ReportSettings, stored: StoredMonths?,
                     database: PostgresConnection, tally: ReportTally, whole: Bool,
                     lines: ((_ bytes: UnsafeRawBufferPointer, _ rows: Int) throws -> Void)? = nil,
                     _ consume: (_ columns: [String], _ rows: [[String?]]) throws -> Void) throws -> ReportTable? {
        let plan = stored?.plan(for: definition)
        if let groups = definition.reuse?.groups, let stored, let plan {
            return try MonthCells.read(definition, groups: groups, sql: sql, settings: settings, stored: stored, plan: plan,
                                       database: database, tally: tally, consume)
        }
        let recorder = try stored?.recorder(for: definition, csvLines: lines != nil)
        var computing = settings
        if let plan {
            computing.firstMonth = plan.firstComputed
            if plan.firstComputed > settings.firstMonth {
                tally.note("reused_" + definition.name, "\(settings.firstMonth)..\(plan.firstComputed.advanced(by: -1))")
            }
        }
        let computes = computing.firstMonth <= settings.lastMonth
        var table = ReportTable(columns: [], rows: [])
        var replayedLines: Int?
        if let lines, let stored {
            replayedLines = try stored.replayCSV(definition, header: { columns in
                table.columns = columns
                try consume(columns, [])
            }, lines: lines)
        }
        if let replayedLines { tally.count("rows_reused_as_csv", by: replayedLines) }
        let reused = try replayedLines ?? stored?.replay(definition) { columns, rows in
            table.columns = columns
            if whole { table.rows += rows } else { try consume(columns, rows) }
        } ?? 0
        tally.count("rows_reused", by: reused)
        let checked = { (columns: [String]) throws in
            guard table.columns.isEmpty || table.columns == columns else {
                throw JobError.failed("report \(definition.name): its columns differ from its stored months' although its SQL is the same; rerun with --full")
            }
        }
        let moved = computes && computing.firstMonth > settings.firstMonth
        if moved { try stored?.moveFirstMonth(to: computing.firstMonth) }
        if computes {
            if whole {
                let computed = try ReportQuery.run(definition.name, sql: sql, settings: computing, database: database)
                try checked(computed.columns)
                try recorder?.observe(computed.columns, computed.rows)
                table.columns = computed.columns
                table.rows += computed.rows
            } else {
                try ReportQuery.stream(definition.name, sql: sql, settings: computing, database: database) { columns, rows in
                    try checked(columns)
                    try consume(columns, rows)
                    try recorder?.observe(columns, rows)
                }
            }
        }
        if moved { try stored?.moveFirstMonth(to: settings.firstMonth) }
        try recorder?.finish()
        if let recorder { tally.count("months_kept_equal", by: recorder.keptEqual) }
        guard whole else { return nil }
        try consume(table.columns, table.rows)
        return table
    }
}
