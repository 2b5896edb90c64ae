import Foundation
import Postgres
import WorldGen

/// One writing job the crash harness kills: its executable, its arguments, and how to pick a kill point.
struct CrashJob: Sendable {
    /// How a kill point is chosen.
    enum Trigger: Sendable {
        /// After the N-th request the simulator received from this run (N drawn from 1…the reference run's count);
        /// a job that made no store call in the reference run falls back to a delay.
        case storeCalls
        /// After a delay drawn from 0…the reference run's duration.
        case delay
    }

    /// The executable (and `job_run.job_name`).
    let name: String
    let trigger: Trigger
    /// Seconds to wait between the kill and the rerun (requery-at-risk: its claims' lease).
    let settleSeconds: Double
    /// The arguments for a world as of `asOf`; `reports` is a folder holding the world's report files. The job runs
    /// in its own working folder, where relative output paths land (the folder `checkOutputs` compares).
    let arguments: @Sendable (_ asOf: Date, _ reports: URL) -> [String]
    /// Jobs run to their end on each fresh world before this one starts (its setup: e.g. the staged report files).
    let prepare: [CrashStep]
    /// What a rerun legitimately changes taken out of the state before the comparison (nil: nothing).
    let normalize: (@Sendable (StateDigest, PostgresConnection) throws -> StateDigest)?
    /// Kill points in the CI plan (`CRASH_POINTS` unset): 2 for the repair jobs and import-exports, 1 for the finance
    /// jobs, whose runs are short and whose setup repeats per point (the benchmark runs 20 for every job).
    let ciPoints: Int

    init(name: String, trigger: Trigger, settleSeconds: Double, prepare: [CrashStep] = [], ciPoints: Int = 2,
         normalize: (@Sendable (StateDigest, PostgresConnection) throws -> StateDigest)? = nil,
         arguments: @escaping @Sendable (_ asOf: Date, _ reports: URL) -> [String]) {
        self.name = name
        self.trigger = trigger
        self.settleSeconds = settleSeconds
        self.prepare = prepare
        self.normalize = normalize
        self.ciPoints = ciPoints
        self.arguments = arguments
    }

    /// Every writing job, in the nightly chain's order (import-exports, reconcile and build-reports after the repair
    /// jobs), then close-period and retention.
    static let all: [CrashJob] = [
        CrashJob(name: "replay-events", trigger: .storeCalls, settleSeconds: 0) { asOf, _ in ["--as-of", iso(asOf)] },
        // 29 days back: inside the 30 days of sandbox history the simulator (on the real clock) still serves.
        CrashJob(name: "recover-notifications", trigger: .storeCalls, settleSeconds: 0) { asOf, _ in
            ["--as-of", iso(asOf), "--since", iso(asOf.addingTimeInterval(-29 * 86_400))]
        },
        CrashJob(name: "sweep-voided", trigger: .storeCalls, settleSeconds: 0) { asOf, _ in ["--as-of", iso(asOf)] },
        CrashJob(name: "ack-rescue", trigger: .storeCalls, settleSeconds: 0) { asOf, _ in ["--as-of", iso(asOf)] },
        // Short leases so the rerun takes over the killed process's claims.
        CrashJob(name: "requery-at-risk", trigger: .storeCalls, settleSeconds: 2.5) { asOf, _ in
            ["--as-of", iso(asOf), "--fresh-hours", "0", "--threads", "2", "--batch-size", "5", "--lease-seconds", "2"]
        },
        CrashJob(name: "expire-lapsed", trigger: .delay, settleSeconds: 0) { asOf, _ in ["--as-of", iso(asOf)] },
        CrashJob(name: "import-exports", trigger: .delay, settleSeconds: 0) { asOf, reports in
            ["--as-of", iso(asOf), "--reports-dir", reports.path]
        },
        // The staged reports of every provider's latest period; the CSVs under `reconciliation/`. A rerun of a period
        // supersedes its current run by design, so the comparison holds the current runs to the uninterrupted run's.
        CrashJob(name: "reconcile", trigger: .delay, settleSeconds: 0, prepare: [.importExports], ciPoints: 1,
                 normalize: { try FinanceRunNames.normalized($0, $1, dropSuperseded: true) }) { asOf, _ in
            ["--as-of", iso(asOf), "--out", "reconciliation"]
        },
        // Writes no row but its job_run: the files under `reports/` are what the test compares.
        CrashJob(name: "build-reports", trigger: .delay, settleSeconds: 0, ciPoints: 1) { asOf, _ in
            CrashStep.buildReports.arguments(asOf, URL(fileURLWithPath: "reports"))
        },
        // Last month closed once: one period_close, a lock and a reconciliation per provider, the snapshots (the
        // reconciliation CSVs and build-reports' files under `reports/`).
        CrashJob(name: "close-period", trigger: .delay, settleSeconds: 0, prepare: [.importExports, .buildReports], ciPoints: 1,
                 normalize: { try FinanceRunNames.normalized($0, $1, dropSuperseded: false,
                                                           wallClock: ["period_close.closed_at", "reconciliation_run.known_at"]) }) { asOf, _ in
            ["--as-of", iso(asOf), "--reports", "reports"]
        },
        // Short horizons so the generated months hold sandbox rows to delete and payloads to redact.
        CrashJob(name: "retention", trigger: .delay, settleSeconds: 0, ciPoints: 1,
                 normalize: { state, _ in FinanceRunNames.withoutAuditRunIDs(state) }) { asOf, _ in
            ["--as-of", iso(asOf), "--sandbox-days", "30", "--payload-days", "45"]
        },
    ]

    /// The checkout holding `Reports/` (build-reports' SQL).
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private static func iso(_ date: Date) -> String { PostgresTimestamp.iso8601(date) }
}

/// A job run to its end before the job under test (its setup on each fresh world).
struct CrashStep: Sendable {
    /// The executable.
    let name: String
    /// The arguments for a world as of `asOf` with its report files in `reports`.
    let arguments: @Sendable (_ asOf: Date, _ reports: URL) -> [String]

    /// import-exports of the world's report files (what reconcile and close-period read).
    static let importExports = CrashStep(name: "import-exports") { asOf, reports in
        ["--as-of", PostgresTimestamp.iso8601(asOf), "--reports-dir", reports.path]
    }

    /// build-reports into `reports/` of the working folder, with the checkout's report SQL.
    static let buildReports = CrashStep(name: "build-reports") { asOf, _ in
        ["--as-of", PostgresTimestamp.iso8601(asOf), "--out", "reports",
         "--sql-dir", CrashJob.repositoryRoot.appendingPathComponent("Reports").path]
    }
}

/// The start of the current UTC minute: job processes sign their store tokens with the real time, so the simulator
/// runs on the real clock, and a world as of a past date would ask for windows the stores no longer keep (Apple's 30
/// days of sandbox notification history, Google's 30 days of voided purchases, which sweep-voided asks for with a
/// 10-minute margin: a test using this must finish its runs within 10 minutes).
func recentAsOf(_ now: Date = Date()) -> Date {
    Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60)
}

/// The crash run's size, from the environment so the benchmark script can run the full plan through the same test:
/// `CRASH_JOBS` (comma-separated names; default all), `CRASH_POINTS` (kill points per job; default each job's
/// `ciPoints`),
/// `CRASH_SUBSCRIPTIONS` (world size; default 150), `CRASH_SEED` (default 2026).
struct CrashPlan {
    let jobs: [CrashJob]
    /// Kill points per job when `CRASH_POINTS` is set, else each job's `ciPoints`.
    let points: Int?
    /// The world; `asOf` is moved to the current minute before each job (see `recentAsOf`).
    var options: WorldOptions
    let seed: UInt64

    /// The plan the environment asks for (the small CI plan when nothing is set).
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> CrashPlan {
        let names = environment["CRASH_JOBS"].map { Set($0.split(separator: ",").map(String.init)) }
        let jobs = CrashJob.all.filter { names?.contains($0.name) ?? true }
        let points = environment["CRASH_POINTS"].flatMap(Int.init)
        let subscriptions = environment["CRASH_SUBSCRIPTIONS"].flatMap(Int.init) ?? 150
        let seed = environment["CRASH_SEED"].flatMap(UInt64.init) ?? 2026
        var options = WorldOptions(seed: seed, subscriptions: subscriptions, months: 4, testShare: 0.03)
        options.faultShares = Dictionary(uniqueKeysWithValues: ProjectionFault.allCases.map { ($0, 0.04) })
        options.asOf = recentAsOf()
        return CrashPlan(jobs: jobs, points: points, options: options, seed: seed)
    }
}
