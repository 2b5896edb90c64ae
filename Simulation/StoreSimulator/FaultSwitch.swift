import Foundation

/// Whether fault injection is on (it is unless switched off).
final class FaultSwitch: @unchecked Sendable {
    private let lock = NSLock()
    private var on = true

    /// True while faults are injected.
    var isOn: Bool { lock.withLock { on } }

    /// Switches injection on or off.
    func set(_ value: Bool) { lock.withLock { on = value } }
}
