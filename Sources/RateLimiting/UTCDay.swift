import Foundation

/// Days counted from the UNIX epoch in UTC, for daily budgets that reset at UTC midnight.
enum UTCDay {
    static func index(of date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    static func start(of day: Int) -> Date {
        Date(timeIntervalSince1970: Double(day) * 86_400)
    }
}

/// Shared arithmetic tolerances.
enum TokenMath {
    /// A token due within this many seconds counts as available (absorbs Date rounding, ~0.1 µs).
    static let grantSlackSeconds = 1e-6
}
