import Foundation
import Postgres

/// Everything a running job needs: its arguments, configuration, logger, database and counters.
public final class JobContext {
    public let jobName: String
    public let arguments: JobArguments
    public let environment: JobEnvironment
    public let logger: JobLogger
    /// The job's own connection (it also holds the job's advisory lock).
    public let database: PostgresConnection
    /// The instant the job acts as of (`--as-of`, or the run's start).
    public let asOf: Date
    /// True when stderr is a terminal, so progress is a live line (with text logs).
    public let isInteractive: Bool
    /// The `job_run.id` of this run, when it is recorded.
    public internal(set) var runID: Int64?
    /// Named counts reported in the summary line and stored in `job_run.counts`.
    public private(set) var counts: [String: Int] = [:]
    /// Extra summary fields (short strings) for the stdout summary line.
    public private(set) var notes: [String: String] = [:]

    init(jobName: String, arguments: JobArguments, environment: JobEnvironment, logger: JobLogger,
         database: PostgresConnection, asOf: Date, isInteractive: Bool) {
        self.jobName = jobName
        self.arguments = arguments
        self.environment = environment
        self.logger = logger
        self.database = database
        self.asOf = asOf
        self.isInteractive = isInteractive
    }

    /// True with `--dry-run`: the job must not write.
    public var dryRun: Bool { arguments.dryRun }
    /// The `--limit`, if given.
    public var limit: Int? { arguments.limit }

    /// Adds to a named count.
    public func count(_ name: String, by amount: Int = 1) { counts[name, default: 0] += amount }

    /// Sets a named count.
    public func setCount(_ name: String, _ value: Int) { counts[name] = value }

    /// Adds a short field to the summary line.
    public func note(_ name: String, _ value: String) { notes[name] = value }

    /// Progress of `total` items of `label` (nil: not known yet), started: a live line for a person at a terminal
    /// reading text logs, otherwise a JSON record every `JOB_PROGRESS_SECONDS` (default 10) seconds on stderr.
    /// Call `finish()` when the work ends.
    public func progress(_ label: String, unit: String = "items", total: Int?) -> JobProgress {
        let style: JobProgress.Style = isInteractive && logger.format == .text ? .liveLine : .jsonRecords
        let seconds = environment.optional("JOB_PROGRESS_SECONDS").flatMap(TimeInterval.init).flatMap { $0 > 0 ? $0 : nil }
        return JobProgress(job: jobName, label: label, unit: unit, total: total, style: style,
                           interval: seconds ?? JobProgress.defaultRecordSeconds,
                           quietSeconds: min(JobProgress.defaultQuietSeconds, seconds ?? JobProgress.defaultQuietSeconds)).start()
    }

    /// Opens another connection with the same settings (for worker pools).
    public func connect() throws -> PostgresConnection {
        try PostgresConnection(configuration: database.configuration)
    }
}
