/// The exit codes every job uses (the job contract in README.md).
public enum JobExitCode: Int32, Sendable {
    case succeeded = 0
    case failed = 1
    case usageOrConfiguration = 2
    /// Completed but a monitored threshold was breached, or the input held nothing to do (`JobError.nothingDone`).
    case thresholdBreached = 3
    case locked = 4

    /// The `job_run.status` value recorded for this outcome.
    public var runStatus: String {
        switch self {
        case .succeeded: return "succeeded"
        case .failed, .usageOrConfiguration, .locked: return "failed"
        case .thresholdBreached: return "threshold_breached"
        }
    }
}
