import Foundation

/// A progress bar on stderr, drawn only when stderr is a terminal and logs are text.
public final class JobProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let label: String
    private let enabled: Bool
    private var done = 0
    private var lastDrawn = Date.distantPast

    /// A bar for `total` items; disabled when output is not for a person.
    public init(label: String, total: Int, enabled: Bool) {
        self.label = label
        self.total = max(total, 1)
        self.enabled = enabled
    }

    /// Records `count` more items done and redraws at most ten times a second.
    public func advance(by count: Int = 1) {
        lock.lock()
        defer { lock.unlock() }
        done += count
        guard enabled, Date().timeIntervalSince(lastDrawn) > 0.1 || done >= total else { return }
        lastDrawn = Date()
        let width = 30
        let filled = min(width, done * width / total)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) \(bar) \(done)/\(total)".utf8))
        if done >= total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
