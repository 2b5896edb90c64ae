import Glibc

/// Why the loopback server could not be created or started.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host is not a loopback address; the server never listens elsewhere.
    case notLoopback(host: String)
    /// A socket call failed: the call's name, errno and the system's message.
    case socket(call: String, errno: Int32, message: String)
    /// A worker or acceptor thread could not be created.
    case threadStart(errno: Int32)
    /// `start()` after `stop()`: a stopped server cannot be restarted.
    case stopped
    /// A setting is out of range (e.g. zero worker threads).
    case invalidConfiguration(String)

    /// Makes a `.socket` error from the current errno.
    static func lastSocketError(_ call: String) -> HTTPServerError {
        let code = errno
        return .socket(call: call, errno: code, message: String(cString: strerror(code)))
    }

    public var description: String {
        switch self {
        case .notLoopback(let host): return "the loopback server binds only to loopback addresses, not '\(host)'"
        case .socket(let call, let code, let message): return "\(call) failed (errno \(code)): \(message)"
        case .threadStart(let code): return "could not start a server thread (errno \(code))"
        case .stopped: return "the server was stopped and cannot be started again"
        case .invalidConfiguration(let message): return "invalid server configuration: \(message)"
        }
    }
}
