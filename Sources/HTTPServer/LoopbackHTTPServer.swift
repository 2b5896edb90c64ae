import HTTP

/// An HTTP/1.1 server on a loopback address for tests, the store simulator and benchmarks:
/// keep-alive, Content-Length and chunked request bodies, a worker pool fed by one accept thread,
/// and the fault injections of `HTTPServerAction`.
public final class LoopbackHTTPServer: @unchecked Sendable {
    private let core: ServerCore
    /// The bound port (the kernel's choice when created with port 0).
    public let port: UInt16
    /// The address the server listens on.
    public let host: String

    /// Binds and listens on `host:port` (loopback only) at once; threads start with `start()`.
    public init(handler: any HTTPHandler, host: String = "127.0.0.1", port: UInt16 = 0, workerThreads: Int = 16) throws {
        guard workerThreads >= 1 else { throw HTTPServerError.invalidConfiguration("workerThreads must be at least 1, got \(workerThreads)") }
        guard host == "localhost" || LoopbackAddress.isLoopback(host) else { throw HTTPServerError.notLoopback(host: host) }
        let (descriptor, boundPort) = try SocketIO.listen(host: host, port: port)
        self.core = ServerCore(handler: handler, listener: descriptor, workerCount: workerThreads)
        self.port = boundPort
        self.host = host
    }

    /// Starts the accept thread and the workers. Calling it again while running does nothing.
    public func start() throws {
        try core.start()
    }

    /// Closes the listener and every connection and joins all threads; idempotent.
    public func stop() {
        core.stop()
    }

    /// How many TCP connections the server has accepted so far (to check connection reuse).
    public var acceptedConnectionCount: Int { core.acceptedConnections }

    /// The listening socket's descriptor number (closed once the server stops; tests check that nothing touches
    /// the number after that).
    var listenerDescriptor: Int32 { core.listener }

    /// `http://host:port` (IPv6 hosts in brackets), for building request URLs.
    public var baseURL: String {
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "http://\(shown):\(port)"
    }

    deinit {
        core.stop()
    }
}
