import Foundation
import JobKit
import Postgres

/// The rows of a report that stores its months as cells (`ReportReuse.monthCells`, `cohorts`): the stored cells of its
/// reused months and the cells its SQL computes for the other months (the snapshots from its first computed month on
/// marked `reported`), merged into the report's order (Reports/README.md, "Incremental runs").
enum MonthCells {
    /// Reads the report whole, hands it to `consume` and returns it; the computed months are recorded for the store.
    static func read(_ definition: ReportDefinition, groups: [String], sql: String, settings: ReportSettings,
                     stored: StoredMonths, plan: StoredMonths.Plan, database: PostgresConnection, tally: ReportTally,
                     _ consume: (_ columns: [String], _ rows: [[String?]]) throws -> Void) throws -> ReportTable {
        let recorder = try stored.recorder(for: definition)
        if plan.firstComputed > settings.firstMonth {
            tally.note("reused_" + definition.name, "\(settings.firstMonth)..\(plan.firstComputed.advanced(by: -1))")
        }
        var table = ReportTable(columns: [], rows: [])
        let reused = try stored.replay(definition) { columns, rows in
            table.columns = columns
            table.rows += rows
        }
        tally.count("rows_reused", by: reused)
        var computed: [[String?]] = []
        if plan.firstComputed <= settings.lastMonth {
            let moved = plan.firstComputed > settings.firstMonth
            if moved { try stored.markReported(from: plan.firstComputed) }
            // The reused cells, for a query that adds its months to them (`ReusedCells`).
            let handed = moved ? try ReusedCells.handOver(table, month: definition.reuse?.column ?? "", database: database) : false
            let result = try ReportQuery.run(definition.name, sql: sql, settings: settings, database: database)
            if handed {
                try ReusedCells.clear(database)
                tally.count("cells_handed", by: table.rows.count)
            }
            if moved { try stored.markReported(from: settings.firstMonth) }
            guard table.columns.isEmpty || table.columns == result.columns else {
                throw JobError.failed("report \(definition.name): its columns differ from its stored months' although its SQL is the same; rerun with --full")
            }
            table.columns = result.columns
            computed = result.rows
            guard let month = table.index(of: definition.reuse?.column ?? "") else {
                throw JobError.failed("report \(definition.name): declares its cells by month column '\(definition.reuse?.column ?? "")', which it does not return")
            }
            // The recorder takes a month's rows together, in the report's order within the month.
            try recorder?.observe(result.columns, stableSorted(computed) { $0[month] ?? "" < $1[month] ?? "" })
        }
        try recorder?.finish()
        if let recorder { tally.count("months_kept_equal", by: recorder.keptEqual) }
        let keys = try groups.map { name in
            guard let index = table.index(of: name) else {
                throw JobError.failed("report \(definition.name): declares its cells grouped by column '\(name)', which it does not return")
            }
            return index
        }
        // Stored cells before computed ones (earlier months), each group's in month order; groups in the SQL's order.
        table.rows = stableSorted(table.rows + computed) { precedes($0, $1, keys) }
        try consume(table.columns, table.rows)
        return table
    }

    /// Whether `a` comes before `b` by the cells at `keys`, compared bytewise (UTF-8), a NULL after any value (the SQL's
    /// `ORDER BY … COLLATE "C"`, ascending, nulls last).
    static func precedes(_ a: [String?], _ b: [String?], _ keys: [Int]) -> Bool {
        for key in keys {
            switch (a[key], b[key]) {
            case (nil, nil): continue
            case (nil, _): return false
            case (_, nil): return true
            case let (x?, y?):
                if x == y { continue }
                return x.utf8.lexicographicallyPrecedes(y.utf8)
            }
        }
        return false
    }

    /// `rows` sorted by `before`, rows that neither precedes kept in their order.
    static func stableSorted(_ rows: [[String?]], by before: ([String?], [String?]) -> Bool) -> [[String?]] {
        rows.enumerated().sorted { before($0.element, $1.element) || (!before($1.element, $0.element) && $0.offset < $1.offset) }
            .map(\.element)
    }
}
