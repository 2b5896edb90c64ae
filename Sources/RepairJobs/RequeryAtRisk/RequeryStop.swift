import Dispatch
import Foundation

/// A stop request: set by SIGTERM / SIGINT (or a test); workers check it between items, finish what is in flight
/// and exit with the summary.
public final class RequeryStop: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var sources: [any DispatchSourceSignal] = []

    /// A flag that is not set.
    public init() {}

    /// True once a stop was requested.
    public var isRequested: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Requests a stop.
    public func request() {
        lock.lock()
        stopped = true
        lock.unlock()
    }

    /// Turns SIGTERM and SIGINT into a stop request for this process.
    public func installSignalHandlers() {
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [weak self] in self?.request() }
            source.resume()
            lock.lock()
            sources.append(source)
            lock.unlock()
        }
    }
}
