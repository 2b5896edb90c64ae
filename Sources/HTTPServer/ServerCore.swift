import Foundation
import Glibc

/// The shared state of a running server: listener, queue of accepted connections, workers, stop flag.
/// Threads hold the core, never the public `LoopbackHTTPServer`, so its deinit can stop them.
final class ServerCore: @unchecked Sendable {
    let handler: any HTTPHandler
    let listener: Int32
    let workerCount: Int
    let keepAliveMilliseconds = 15_000
    let requestTimeoutMilliseconds = 10_000

    private let condition = NSCondition()
    private var pending: [Int32] = []
    private var active: Set<Int32> = []
    private var stopping = false
    private var started = false
    private var accepted = 0
    private var threads: [JoinableThread] = []
    private var listenerClosed = false

    init(handler: any HTTPHandler, listener: Int32, workerCount: Int) {
        self.handler = handler
        self.listener = listener
        self.workerCount = workerCount
    }

    var isStopping: Bool { condition.withLock { stopping } }
    var hasWaitingConnections: Bool { condition.withLock { !pending.isEmpty } }
    var acceptedConnections: Int { condition.withLock { accepted } }

    func start() throws(HTTPServerError) {
        condition.lock()
        defer { condition.unlock() }
        if stopping { throw .stopped }
        if started { return }
        started = true
        do {
            for _ in 0..<workerCount { threads.append(try JoinableThread { [self] in workerLoop() }) }
            threads.append(try JoinableThread { [self] in acceptLoop() })
        } catch {
            stopping = true
            condition.broadcast()
            throw error
        }
    }

    /// Stops accepting, wakes and closes every connection, joins all threads. Safe to call twice: the listener is
    /// shut down and closed once only. A descriptor number is reused by the next socket the process opens (a libpq
    /// connection, say), so a second `shutdown` of a closed listener would cut whichever socket holds the number now.
    func stop() {
        condition.lock()
        stopping = true
        let joinable = threads
        threads = []
        let queued = pending
        pending = []
        for descriptor in active { shutdown(descriptor, Int32(SHUT_RDWR)) }
        if !listenerClosed { shutdown(listener, Int32(SHUT_RDWR)) }
        condition.broadcast()
        condition.unlock()
        queued.forEach { close($0) }
        joinable.forEach { $0.join() }
        condition.withLock {
            if !listenerClosed {
                listenerClosed = true
                close(listener)
            }
        }
    }

    /// Sleeps up to `seconds`; false when the server began stopping meanwhile.
    func pause(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: max(0, seconds))
        condition.lock()
        defer { condition.unlock() }
        while !stopping && Date() < deadline { _ = condition.wait(until: deadline) }
        return !stopping
    }

    private func acceptLoop() {
        while !isStopping {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else {
                if errno == EMFILE || errno == ENFILE { usleep(10_000) }
                continue
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            SocketIO.setNoDelay(descriptor)
            condition.lock()
            if stopping {
                condition.unlock()
                close(descriptor)
                return
            }
            accepted += 1
            pending.append(descriptor)
            condition.signal()
            condition.unlock()
        }
    }

    private func workerLoop() {
        while let descriptor = nextConnection() {
            var session = ConnectionSession(descriptor: descriptor, core: self)
            let ending = session.run()
            condition.withLock { _ = active.remove(descriptor) }
            switch ending {
            case .close: SocketIO.gracefulClose(descriptor)
            case .reset: SocketIO.resetAndClose(descriptor)
            }
        }
    }

    /// The next accepted connection, registered as active; nil once the server stops.
    private func nextConnection() -> Int32? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty && !stopping { condition.wait() }
        guard !stopping, !pending.isEmpty else { return nil }
        let descriptor = pending.removeFirst()
        active.insert(descriptor)
        return descriptor
    }
}
