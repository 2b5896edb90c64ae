import Foundation

/// One step of a `nightly` run: its exit code, how long it took, its one-line summary, and whether the chain may go on.
public struct NightlyStepResult: Sendable, Equatable {
    /// The step's job name.
    public let name: String
    /// The child's exit code; nil when the step was not run (not built).
    public let exitCode: Int32?
    /// Wall-clock duration in milliseconds.
    public let durationMilliseconds: Int
    /// A short human summary of what the step did (its counts, or its error).
    public let summary: String

    /// Declares a step's outcome.
    public init(name: String, exitCode: Int32?, durationMilliseconds: Int, summary: String) {
        self.name = name
        self.exitCode = exitCode
        self.durationMilliseconds = durationMilliseconds
        self.summary = summary
    }

    /// How the chain treats the step's exit code.
    public var severity: NightlyStepSeverity { NightlyStepSeverity.of(step: name, exitCode: exitCode) }

    /// `replay-events  exit 0  ok    1.2s  processed=3`: one aligned status line.
    public var statusLine: String {
        let code = exitCode.map { "exit \($0)" } ?? "—"
        return NightlyTable.pad(name, 22) + NightlyTable.pad(code, 8) + NightlyTable.pad(severity.rawValue, 8)
            + NightlyTable.pad(NightlyTable.duration(durationMilliseconds), 9) + summary
    }
}

/// How `nightly` treats a step's exit code.
///
/// - `ok`: exit 0.
/// - `skipped`: the step's executable is not installed.
/// - `soft`: the chain continues. Exit 3 (a threshold breach: the job finished its work) from any step, and exit 1 from
///   the finance steps (`import-exports`, `reconcile`, `build-reports`): their failure leaves the projection as it was,
///   and the steps after them (drift-counts) still report honestly.
/// - `hard`: the chain stops. Exit 1 from a repair job (the next steps would read a half-repaired projection), exit 2
///   (usage or configuration: every later step would fail alike), exit 4 (another run holds a lock: the schedule
///   overlaps) and any other code, including death by a signal.
public enum NightlyStepSeverity: String, Sendable, Comparable {
    case ok, skipped, soft, hard

    /// The steps whose exit 1 is soft.
    public static let softFailureSteps: Set<String> = ["import-exports", "reconcile", "build-reports"]

    /// The severity of `exitCode` from `step`.
    public static func of(step: String, exitCode: Int32?) -> NightlyStepSeverity {
        guard let exitCode else { return .skipped }
        switch exitCode {
        case 0: return .ok
        case 3: return .soft
        case 1: return softFailureSteps.contains(step) ? .soft : .hard
        default: return .hard
        }
    }

    private var rank: Int { [.ok: 0, .skipped: 0, .soft: 1, .hard: 2][self] ?? 2 }

    /// Orders by how bad the outcome is.
    public static func < (lhs: NightlyStepSeverity, rhs: NightlyStepSeverity) -> Bool { lhs.rank < rhs.rank }
}

extension NightlyStepResult {
    /// The chain's exit code from its steps' codes: the worst step's, ranking 0 < 3 < 1 < 4 < 2 (a configuration
    /// error outranks a lock, which outranks a failure); a code outside the contract (a crash) counts as 1.
    public static func worstExitCode(_ results: [NightlyStepResult]) -> JobExitCode {
        let rank: [JobExitCode: Int] = [.succeeded: 0, .thresholdBreached: 1, .failed: 2, .locked: 3, .usageOrConfiguration: 4]
        return results.compactMap(\.exitCode).map { JobExitCode(rawValue: $0) ?? .failed }
            .max { (rank[$0] ?? 2) < (rank[$1] ?? 2) } ?? .succeeded
    }
}
