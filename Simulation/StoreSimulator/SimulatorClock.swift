import Foundation

/// Where the simulator reads the time: the system clock, or a `ManualClock` in tests.
public struct SimulatorClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock reading `read`.
    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    /// The current time.
    public func now() -> Date { read() }

    /// The system clock.
    public static let system = SimulatorClock { Date() }

    /// A clock stopped at `date`.
    public static func fixed(_ date: Date) -> SimulatorClock {
        SimulatorClock { date }
    }
}
