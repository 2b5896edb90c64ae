/// CSV rows (without a header) by Pacific month `YYYYMM`, in the order added, which can be moved to a spill file
/// between batches so memory stays flat: the storage both Google monthly reports share.
struct MonthlyRows {
    /// Keeps one report's spilled months apart from another's (`earnings-`, `sales-`).
    let prefix: String
    /// The rows still in memory, by month.
    private(set) var months: [String: [UInt8]] = [:]

    init(prefix: String) { self.prefix = prefix }

    /// Appends one CSV line to `month`.
    mutating func append(_ line: String, month: String) { months[month, default: []] += line.utf8 }

    /// Moves the rows in memory to `spill` (appended per month).
    mutating func spill(to spill: ReportSpill) throws {
        for month in months.keys.sorted() { try spill.append(prefix + month, months[month] ?? []) }
        months = [:]
    }

    /// Every month's rows: those moved to `spill` first, then those still in memory.
    func all(spill: ReportSpill?) throws -> [String: [UInt8]] {
        var all = months
        for month in spill?.names(prefix: prefix) ?? [] {
            all[month] = try (spill?.read(prefix + month) ?? []) + (months[month] ?? [])
        }
        return all
    }
}
