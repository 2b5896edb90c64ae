/// A UTC calendar month as one integer (`year × 12 + month − 1`), with its bounds and labels.
struct WorldMonth: Sendable, Hashable, Comparable {
    let index: Int64

    /// The month containing `ms`.
    init(containing ms: Int64) {
        let date = WorldClock.civil(WorldClock.floorDiv(ms, WorldClock.day))
        index = date.year * 12 + date.month - 1
    }

    init(index: Int64) { self.index = index }

    var year: Int64 { WorldClock.floorDiv(index, 12) }
    var month: Int64 { index - year * 12 + 1 }

    /// The first instant of the month.
    var startMs: Int64 { WorldClock.days(year: year, month: month, day: 1) * WorldClock.day }

    /// The last instant (millisecond) of the month.
    var lastMs: Int64 { WorldMonth(index: index + 1).startMs - 1 }

    /// The month before.
    var previous: WorldMonth { WorldMonth(index: index - 1) }

    /// `2026-03`.
    var label: String { "\(year)-" + (month < 10 ? "0" : "") + String(month) }

    /// `2026-03-01` (the `fx_rate.month` key).
    var firstDay: String { label + "-01" }

    /// The months from `first` to `last`, both included.
    static func range(_ first: WorldMonth, _ last: WorldMonth) -> [WorldMonth] {
        first.index <= last.index ? (first.index...last.index).map(WorldMonth.init(index:)) : []
    }

    static func < (lhs: WorldMonth, rhs: WorldMonth) -> Bool { lhs.index < rhs.index }
}
