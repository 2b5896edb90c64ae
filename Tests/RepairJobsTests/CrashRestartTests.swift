import Foundation
import Postgres
import Testing
import WorldGen

/// `kill -9` at seeded points of every writing job, run as a real process over a generated world, then a rerun:
/// the database ends in the state of an uninterrupted run (`StateDigest`: every table but run bookkeeping, row for
/// row, no duplicate, no missing row), the rerun exits like the uninterrupted run, and no output file is left under
/// its final name with content other than the uninterrupted run's.
///
/// CI runs `CrashPlan`'s small default (2 points per repair job and import-exports, 1 per finance and operations job,
/// 150 subscriptions); `Benchmarks/reliability/crash.sh` runs 20 points per job on a larger world through this same
/// test and prints one line per kill.
@Suite(.serialized) struct CrashRestartTests {
    static func folder(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(getpid())/\(name)")
    }

    /// What an uninterrupted run of one job produced.
    struct Reference {
        let status: Int32
        let storeCalls: Int
        let seconds: Double
        let state: StateDigest
        let outputs: URL
    }

    @Test func everyWritingJobKilledAtSeededPointsThenRerunEndsInTheUninterruptedState() throws {
        var plan = CrashPlan.fromEnvironment()
        var random = CrashRandom(seed: plan.seed)
        var kills = 0
        for job in plan.jobs {
            plan.options.asOf = recentAsOf()   // each job's runs stay inside the stores' 30-day windows
            let reference = try Self.reference(job, plan)
            for point in 0..<(plan.points ?? job.ciPoints) {
                let tag = "\(job.name)-\(point)"
                let (harness, process, reports, outputs) = try Self.start(job, plan, tag: tag)
                defer { harness.server.stop(); harness.database.close() }
                // The kill point: after N store calls, or after a delay, both drawn from the reference run.
                let callsBefore = harness.simulator.counters.totalRequests
                let useCalls = job.trigger == .storeCalls && reference.storeCalls > 0
                let target = useCalls ? Int(random.next() % UInt64(reference.storeCalls)) + 1 : 0
                let delay = useCalls ? 0 : random.nextUnit() * max(reference.seconds, 0.05)
                let started = Date()
                while process.isRunning {
                    if useCalls, harness.simulator.counters.totalRequests - callsBefore >= target { break }
                    if !useCalls, Date().timeIntervalSince(started) >= delay { break }
                    Thread.sleep(forTimeInterval: 0.002)
                }
                let killedMidRun = process.isRunning
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                if killedMidRun { kills += 1 }
                let killedAt = useCalls ? "call \(target) of \(reference.storeCalls)"
                    : String(format: "%.3f s of %.3f s", delay, reference.seconds)
                try Self.checkOutputs(outputs, against: reference.outputs, context: "\(tag) after the kill")

                Thread.sleep(forTimeInterval: job.settleSeconds)
                let rerun = try Self.runToEnd(job, harness, plan, reports: reports, outputs: outputs, tag: "\(tag)-rerun")
                #expect(rerun.status == reference.status, "\(tag): rerun exited \(rerun.status), uninterrupted \(reference.status): \(rerun.summary)")
                let state = try Self.state(job, harness.database)
                let differences = state.differences(from: reference.state)
                #expect(differences.isEmpty, "\(tag) killed at \(killedAt), then rerun: \(differences)")
                for table in ["billing_transaction", "subscription_price_change", "entitlement_interval", "inbound_webhook_event",
                              "reconciliation_run", "reconciliation_item", "period_close", "period_lock", "period_snapshot"] {
                    #expect(state.duplicates(in: table).isEmpty, "\(tag): duplicate \(table) rows \(state.duplicates(in: table).prefix(2))")
                }
                try Self.checkOutputs(outputs, against: reference.outputs, context: "\(tag) after the rerun", complete: true)
                print("crash job=\(job.name) point=\(point) killed_at=\"\(killedAt)\" mid_run=\(killedMidRun) "
                      + "rerun_exit=\(rerun.status) equal=\(differences.isEmpty) digest=\(state.digest.prefix(16))")
            }
        }
        #expect(kills > 0 || plan.jobs.isEmpty, "at least one kill landed mid-run")
    }

    /// The output check can fail: a file cut short under its final name, or a file of the uninterrupted run missing
    /// after the rerun, is reported; the same bytes under a temporary name are not.
    @Test func aPartialOrMissingFileUnderAFinalNameIsReported() throws {
        let reference = Self.folder("check/reference"), mine = Self.folder("check/mine")
        for folder in [reference, mine] {
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("reports"), withIntermediateDirectories: true)
        }
        let whole = Data("month,mrr\n2026-11,12.50\n".utf8), cut = Data("month,mrr\n2026-11,1".utf8)
        try whole.write(to: reference.appendingPathComponent("reports/mrr.csv"))
        try whole.write(to: reference.appendingPathComponent("reports/refunds.csv"))
        try whole.write(to: mine.appendingPathComponent("reports/mrr.csv"))
        try cut.write(to: mine.appendingPathComponent("reports/.refunds.csv.partial-42"))
        try Self.checkOutputs(mine, against: reference, context: "a temporary name")
        withKnownIssue("a file cut short under its final name") {
            try cut.write(to: mine.appendingPathComponent("reports/refunds.csv"))
            try Self.checkOutputs(mine, against: reference, context: "a final name")
        }
        try FileManager.default.removeItem(at: mine.appendingPathComponent("reports/refunds.csv"))
        withKnownIssue("a file of the uninterrupted run missing after the rerun") {
            try Self.checkOutputs(mine, against: reference, context: "the rerun", complete: true)
        }
    }

    /// A fresh world in its own database with the job process started on it.
    static func start(_ job: CrashJob, _ plan: CrashPlan, tag: String) throws -> (RequeryHarness, Process, URL, URL) {
        let name = "crash_" + tag.replacingOccurrences(of: "-", with: "_")
        let harness = try RequeryHarness(name: name, options: plan.options, systemClock: true)
        let reports = folder(tag + "/reports"), outputs = folder(tag + "/outputs")
        try? FileManager.default.removeItem(at: folder(tag))
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        _ = try StoreReports.write(harness.world, to: reports)
        for step in job.prepare {   // the job's setup, run to its end on this world
            let setup = try JobProcess(step.name, harness: harness, folder: folder(tag + "/logs"))
            _ = try setup.run(step.arguments(plan.options.asOf, reports), logs: folder(tag + "/logs"), tag: "prepare-" + step.name,
                              directory: outputs)
        }
        let process = try JobProcess(job.name, harness: harness, folder: folder(tag + "/logs"))
        try #require(process.isBuilt, "build the jobs first (make test does)")
        let started = try process.start(job.arguments(plan.options.asOf, reports), logs: folder(tag + "/logs"), tag: "run",
                                        directory: outputs)
        return (harness, started, reports, outputs)
    }

    /// The job's uninterrupted run on a fresh world.
    static func reference(_ job: CrashJob, _ plan: CrashPlan) throws -> Reference {
        let (harness, process, _, outputs) = try start(job, plan, tag: "\(job.name)-reference")
        let started = Date()
        defer { harness.server.stop(); harness.database.close() }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(started)
        let state = try Self.state(job, harness.database)
        print("crash job=\(job.name) reference exit=\(process.terminationStatus) store_calls=\(harness.simulator.counters.totalRequests) "
              + String(format: "seconds=%.2f", seconds) + " rows=\(state.counts.values.reduce(0, +)) digest=\(state.digest.prefix(16))")
        return Reference(status: process.terminationStatus, storeCalls: harness.simulator.counters.totalRequests,
                         seconds: seconds, state: state, outputs: outputs)
    }

    /// The database's state as the comparison sees it (`StateDigest`, then the job's `normalize`).
    static func state(_ job: CrashJob, _ database: PostgresConnection) throws -> StateDigest {
        let state = try StateDigest(database)
        return try job.normalize?(state, database) ?? state
    }

    /// Runs the job to its end, retrying while the killed process's advisory lock is not yet released (exit 4).
    static func runToEnd(_ job: CrashJob, _ harness: RequeryHarness, _ plan: CrashPlan, reports: URL, outputs: URL,
                         tag: String) throws -> (status: Int32, summary: String) {
        let process = try JobProcess(job.name, harness: harness, folder: folder(tag))
        var attempt = 0
        while true {
            attempt += 1
            let run = try process.run(job.arguments(plan.options.asOf, reports), logs: folder(tag), tag: "run\(attempt)", directory: outputs)
            if run.status == 4 && attempt < 40 { Thread.sleep(forTimeInterval: 0.1); continue }
            return run
        }
    }

    /// Every file in `outputs` under a final name (not a dot-file, not `*.tmp`/`*.partial`) must be byte-identical to
    /// the uninterrupted run's file of that name: a half-written file never sits under its final name. `complete`
    /// (after the rerun): every file of the uninterrupted run is there, too.
    static func checkOutputs(_ outputs: URL, against reference: URL, context: String, complete: Bool = false) throws {
        let manager = FileManager.default
        let names = finalNames(outputs)
        if complete {
            let missing = finalNames(reference).subtracting(names)
            #expect(missing.isEmpty, "\(context): files of the uninterrupted run missing: \(missing.sorted().prefix(5))")
        }
        for name in names.sorted() {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: outputs.appendingPathComponent(name).path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            let mine = try Data(contentsOf: outputs.appendingPathComponent(name))
            let theirs = try? Data(contentsOf: reference.appendingPathComponent(name))
            #expect(mine == theirs, "\(context): \(name) under its final name differs from the uninterrupted run's")
        }
    }

    /// The relative paths of the files under `folder` with a final name: no path component starting with a dot (the
    /// jobs' temporary names are `.<name>.tmp-<pid>` and `.<name>.partial-<pid>`), no `*.tmp`/`*.partial`.
    static func finalNames(_ folder: URL) -> Set<String> {
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
        return Set(names.filter { name in
            !name.split(separator: "/").contains { $0.hasPrefix(".") } && !name.hasSuffix(".tmp") && !name.hasSuffix(".partial")
        })
    }
}

/// SplitMix64: the kill points are a pure function of `CRASH_SEED`, so a failing point reproduces.
struct CrashRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<1.
    mutating func nextUnit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }
}
