/// Categorises Apple report cells of one period against the database rows aggregated into the same cells.
///
/// Apple's reports carry no transaction IDs, so differences are unit counts per cell, explained in this order:
/// test purchases (the database's test rows), timing (the neighbour period holds the missing units and the rows lie
/// within the window of the shared edge), currency mismatch (a report surplus and a database shortfall of one
/// product, country and side in two currencies), amount mismatch (the same in one currency at two prices), then
/// what is left: a report surplus is missing in the database (a return: refund not reflected), a shortfall is
/// missing in the store report. A charge reported twice is one more unit in the report, which at this grain is
/// indistinguishable from a charge missing in the database: Apple has no `duplicate` items.
/// The timing window is applied where the database rows are counted (`AppleCellSides.paidNearStart` / `paidNearEnd`).
public struct AppleCategorizer: Sendable {
    /// Creates a categoriser.
    public init() {}

    /// The items of `current` (cells in order), given its neighbours.
    public func items(current: [AppleCell: AppleCellSides], previous: [AppleCell: AppleCellSides],
                      next: [AppleCell: AppleCellSides]) -> [ReconciliationItem] {
        var ledger = Ledger(cells: current)
        let cells = current.keys.sorted()
        for cell in cells {
            guard let sides = current[cell] else { continue }
            ledger.add(.testPurchaseExcluded, report: cell, 0, database: cell, sides.testUnits)
            ledger.add(.matched, report: cell, min(sides.reportUnits, sides.paidUnits), database: cell, min(sides.reportUnits, sides.paidUnits))
        }
        for cell in cells {
            guard let sides = current[cell] else { continue }
            let shortfall = ledger.shortfall(cell)
            if shortfall > 0 {
                let earlier = min(shortfall, sides.paidNearStart, surplus(previous[cell]))
                ledger.add(.timing, report: cell, 0, database: cell, earlier, detail: "report previous period")
                let later = min(ledger.shortfall(cell), sides.paidNearEnd, surplus(next[cell]))
                ledger.add(.timing, report: cell, 0, database: cell, later, detail: "report next period")
            }
            let extra = ledger.surplus(cell)
            if extra > 0 {
                let before = min(extra, nearShortfall(previous[cell], near: \.paidNearEnd))
                ledger.add(.timing, report: cell, before, database: cell, 0, detail: "database previous period")
                let after = min(ledger.surplus(cell), nearShortfall(next[cell], near: \.paidNearStart))
                ledger.add(.timing, report: cell, after, database: cell, 0, detail: "database next period")
            }
        }
        // Pair a report surplus with a database shortfall of the same product, country and side.
        for cell in cells where ledger.surplus(cell) > 0 {
            for other in cells where ledger.shortfall(other) > 0 && other.product == cell.product && other.country == cell.country
                && (other.price < 0) == (cell.price < 0) && other != cell {
                let category: ReconciliationCategory = other.currency != cell.currency ? .currencyMismatch : .amountMismatch
                let units = min(ledger.surplus(cell), ledger.shortfall(other))
                ledger.add(category, report: cell, units, database: other, units, detail: "database " + other.key)
            }
        }
        for cell in cells {
            let extra = ledger.surplus(cell)
            ledger.add(cell.price < 0 ? .refundNotReflected : .missingInDatabase, report: cell, extra, database: cell, 0)
            ledger.add(.missingInStoreReport, report: cell, 0, database: cell, ledger.shortfall(cell))
        }
        return ledger.items
    }

    /// A neighbour cell's report units beyond its paid database units.
    func surplus(_ sides: AppleCellSides?) -> Int64 {
        guard let sides else { return 0 }
        return max(0, sides.reportUnits - sides.paidUnits)
    }

    /// A neighbour cell's paid database units beyond its report units, counting only rows within the window of the
    /// edge it shares with the period: the previous period's end, the next period's start.
    func nearShortfall(_ sides: AppleCellSides?, near: KeyPath<AppleCellSides, Int64>) -> Int64 {
        guard let sides else { return 0 }
        return min(sides[keyPath: near], max(0, sides.paidUnits - sides.reportUnits))
    }

    /// The units of each cell not yet explained, and the items so far.
    struct Ledger {
        var cells: [AppleCell: AppleCellSides]
        var reportLeft: [AppleCell: Int64] = [:]
        var databaseLeft: [AppleCell: Int64] = [:]
        var netLeft: [AppleCell: Int64] = [:]
        var items: [ReconciliationItem] = []

        init(cells: [AppleCell: AppleCellSides]) {
            self.cells = cells
            for (cell, sides) in cells {
                reportLeft[cell] = sides.reportUnits
                databaseLeft[cell] = sides.databaseUnits
                netLeft[cell] = sides.reportNet
            }
        }

        /// Report units of the cell not yet explained.
        func surplus(_ cell: AppleCell) -> Int64 { reportLeft[cell] ?? 0 }
        /// Database units of the cell not yet explained.
        func shortfall(_ cell: AppleCell) -> Int64 { databaseLeft[cell] ?? 0 }

        /// Explains `reportUnits` of `report` and `databaseUnits` of `database` by `category` (nothing when both are 0).
        mutating func add(_ category: ReconciliationCategory, report: AppleCell, _ reportUnits: Int64, database: AppleCell,
                          _ databaseUnits: Int64, detail: String = "") {
            guard reportUnits > 0 || databaseUnits > 0 else { return }
            let left = reportLeft[report] ?? 0
            let net = netLeft[report] ?? 0
            // The last units of a cell take the rest of its proceeds, so that the cell's proceeds are split exactly.
            let share = reportUnits == 0 ? 0 : (reportUnits == left ? net : net / max(left, 1) * reportUnits)
            reportLeft[report] = left - reportUnits
            netLeft[report] = net - share
            databaseLeft[database] = (databaseLeft[database] ?? 0) - databaseUnits
            let shown = reportUnits > 0 ? report : database
            let gross = reportUnits * abs(report.price) * (report.price < 0 ? -1 : 1)
            items.append(ReconciliationItem(
                category: category, grainKey: shown.key, side: shown.side, productId: shown.product, country: shown.country,
                currency: shown.currency, databaseCurrency: databaseUnits > 0 ? database.currency : nil,
                reportUnits: reportUnits, databaseUnits: databaseUnits, reportGross: gross,
                databaseGross: databaseUnits * database.price, storeFee: share - gross, detail: detail))
        }
    }
}
