/// Why a job stopped; each case maps to one exit code.
public enum JobError: Error, CustomStringConvertible, Sendable {
    /// Bad command-line usage (exit 2).
    case usage(String)
    /// A required environment variable is missing or invalid (exit 2).
    case configuration(String)
    /// Another run of the same job holds the lock (exit 4).
    case locked(LockHolder)
    /// The job completed but a monitored threshold was breached (exit 3).
    case thresholdBreached(String)
    /// The job failed (exit 1).
    case failed(String)
    /// The job's input was missing, empty or unusable, so it did nothing (exit 3); the message says what was found.
    case nothingDone(String)

    /// The exit code for this error.
    public var exitCode: JobExitCode {
        switch self {
        case .usage, .configuration: return .usageOrConfiguration
        case .locked: return .locked
        case .thresholdBreached, .nothingDone: return .thresholdBreached
        case .failed: return .failed
        }
    }

    public var description: String {
        switch self {
        case .usage(let message): return "usage error: \(message)"
        case .configuration(let message): return "configuration error: \(message)"
        case .locked(let holder): return "another run holds the lock: \(holder)"
        case .thresholdBreached(let message): return "threshold breached: \(message)"
        case .failed(let message): return message
        case .nothingDone(let message): return "nothing done: \(message)"
        }
    }
}

/// The run that holds a job's lock, as far as the database can tell.
public struct LockHolder: Sendable, CustomStringConvertible, Equatable {
    public let jobName: String
    public let pid: Int32?
    public let host: String?
    public let startedAt: String?
    public let backendPID: Int32?

    public var description: String {
        var parts = ["\(jobName) run"]
        if let pid { parts.append("pid \(pid)") }
        if let host { parts.append("on host \(host)") }
        if let startedAt { parts.append("started at \(startedAt)") }
        if pid == nil, let backendPID { parts.append("(database backend pid \(backendPID))") }
        return parts.joined(separator: " ")
    }
}
