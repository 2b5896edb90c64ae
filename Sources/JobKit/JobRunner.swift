import Foundation
import Postgres

/// Runs a job under the common contract: arguments, configuration, lock, `job_run` row, summary, exit code.
public enum JobRunner {
    /// Runs `definition` with the process's arguments and environment, then exits with the job's code.
    public static func main(_ definition: JobDefinition) -> Never {
        let code = run(definition, arguments: Array(CommandLine.arguments.dropFirst()), environment: JobEnvironment())
        exit(code.rawValue)
    }

    /// Runs `definition` and returns its exit code (tests call this directly).
    public static func run(_ definition: JobDefinition, arguments rawArguments: [String], environment: JobEnvironment,
                           output: @Sendable (String) -> Void = { print($0) }) -> JobExitCode {
        let started = Date()
        let arguments: JobArguments
        do {
            arguments = try JobArguments.parse(rawArguments, options: definition.options, positional: definition.positional != nil)
        } catch {
            JobLogger.standardError("\(definition.name): \(error)\ntry '\(definition.name) --help'")
            return .usageOrConfiguration
        }
        if arguments.help { output(definition.helpText); return .succeeded }
        if arguments.version { output("\(definition.name) \(PipelineVersion.description())"); return .succeeded }

        let interactive = isatty(STDERR_FILENO) == 1
        let logger = JobLogger(job: definition.name, format: arguments.logFormat ?? (interactive ? .text : .json))
        let asOf = arguments.asOf ?? started
        let pid = getpid()
        let host = ProcessInfo.processInfo.hostName

        func finish(_ code: JobExitCode, _ context: JobContext?, _ error: String?) -> JobExitCode {
            if let error { logger.error(error) }
            let summary = JobSummary(
                job: definition.name, exitCode: code, runID: context?.runID, asOf: asOf, dryRun: arguments.dryRun,
                durationMilliseconds: Int(Date().timeIntervalSince(started) * 1000), counts: context?.counts ?? [:],
                notes: context?.notes ?? [:], error: error)
            if definition.queryTool { JobLogger.standardError(summary.line) } else { output(summary.line) }
            return code
        }

        let database: PostgresConnection
        do {
            var configuration = try environment.databaseConfiguration(applicationName: "")
            configuration.applicationName = ApplicationName.make(job: definition.name, pid: pid, host: host)
            database = try PostgresConnection(configuration: configuration)
        } catch let error as JobError {
            return finish(error.exitCode, nil, error.description)
        } catch {
            return finish(.failed, nil, "cannot connect to the database: \(error)")
        }
        defer { database.close() }

        let lockName = "job:" + definition.name
        let recorder = JobRunRecorder(database: database)
        do {
            if definition.exclusive, try !database.tryAdvisoryLock(lockName) {
                let holder = try recorder.holder(of: lockName, job: definition.name)
                return finish(.locked, nil, JobError.locked(holder).description)
            }
        } catch {
            return finish(.failed, nil, "cannot take the job lock: \(error)")
        }
        // Released explicitly before the connection closes (defers run last-first): a closed session's locks are
        // freed only once its backend has finished exiting (dropping its temporary tables first), so a run started
        // right after this one returns could otherwise still find the lock held and exit 4.
        defer { if definition.exclusive { _ = try? database.advisoryUnlock(lockName) } }

        let context = JobContext(jobName: definition.name, arguments: arguments, environment: environment, logger: logger,
                                 database: database, asOf: asOf, isInteractive: interactive)
        var code = JobExitCode.succeeded
        var message: String?
        let conflictRetriesBefore = PostgresConflictRetries.total
        do {
            if !arguments.dryRun, !definition.queryTool, try recorder.isAvailable() {
                let abandoned = try recorder.markAbandoned()
                if abandoned > 0 {
                    context.note("runs_marked_abandoned", String(abandoned))
                    logger.warning("marked \(abandoned) job_run row(s) abandoned: their process ended without finishing")
                }
                context.runID = try recorder.start(job: definition.name, startedAt: started, asOf: asOf,
                                                   arguments: rawArguments, host: host, pid: pid)
            }
            try definition.run(context)
        } catch let error as JobError {
            code = error.exitCode
            message = error.description
        } catch {
            code = .failed
            message = FileSystemError.describe(error)
        }
        // Transactions re-run after a deadlock or serialization failure (in-process runs in parallel share the figure).
        let conflictRetries = PostgresConflictRetries.total - conflictRetriesBefore
        if conflictRetries > 0 { context.setCount("conflict_retries", conflictRetries) }
        do {
            if !arguments.dryRun, !definition.queryTool, try recorder.isAvailable() {
                // migrate creates job_run during its own run; record it then, too.
                let id = try context.runID ?? recorder.start(job: definition.name, startedAt: started, asOf: asOf,
                                                             arguments: rawArguments, host: host, pid: pid)
                context.runID = id
                try recorder.finish(id: id, status: code.runStatus, counts: context.counts, error: message)
            }
        } catch {
            logger.error("could not record the run in job_run: \(error)")
            if code == .succeeded { code = .failed }
        }
        return finish(code, context, message)
    }
}
