import Foundation
import Postgres
import StoreSimulator
import Testing
import WorldGen

/// The repair jobs as processes against a simulator that misbehaves on 20 % of requests, spread over every fault kind
/// (5xx, resets, 429 storms, answers slower than the client's timeout, truncated and oversized bodies, the wrong
/// content type, invalid, expired and wrong-app signatures, states older than stored). Every job ends with one JSON
/// summary line and exit 1 (could not complete) or 3 (completed, items left failed: their count and commonest errors
/// in the summary), or 0 only when nothing failed; its peak RSS stays bounded; nothing the clean run would not write
/// is written and no subscription goes back to an older state; a rerun with the faults switched off exits 0 for every
/// job and ends where the clean run ends.
///
/// `Benchmarks/reliability/hostile.sh` runs the same test on a larger world (`HOSTILE_SUBSCRIPTIONS`,
/// `HOSTILE_OVERSIZED_BYTES`) and prints one line per job.
@Suite(.serialized) struct HostileStoreTests {
    static func folder(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(getpid())/\(name)")
    }

    /// 20 % in all, the same share for each kind.
    static func faults(oversizedBytes: Int) -> String {
        let share = 0.2 / Double(TransportFault.allCases.count)
        return TransportFault.allCases.map { "\($0.rawValue)=\(share)" }.joined(separator: ",")
            + ",timeout-seconds=1.5,storm-seconds=0.5,oversized-bytes=\(oversizedBytes)"
    }

    /// The chain's writing jobs with their arguments; requery-at-risk's run key names the pass.
    static func chain(_ asOf: Date, pass: String) -> [(String, [String])] {
        let at = PostgresTimestamp.iso8601(asOf)
        return [
            ("replay-events", ["--as-of", at]),
            // 29 days back: inside the 30 days of sandbox history the simulator (on the real clock) still serves.
            ("recover-notifications", ["--as-of", at, "--since", PostgresTimestamp.iso8601(asOf.addingTimeInterval(-29 * 86_400))]),
            ("sweep-voided", ["--as-of", at]),
            ("ack-rescue", ["--as-of", at]),
            ("requery-at-risk", ["--as-of", at, "--fresh-hours", "0", "--threads", "2", "--batch-size", "5", "--run-key", pass]),
            ("expire-lapsed", ["--as-of", at]),
        ]
    }

    /// One job run: exit status, summary line, peak RSS in KiB (VmHWM, polled while it runs).
    struct JobResult {
        let name: String
        let status: Int32
        let summary: String
        let peakKiB: Int
        let seconds: Double
    }

    /// Runs the chain's jobs one after another as processes with a 1 s store timeout.
    static func runChain(_ harness: RequeryHarness, asOf: Date, pass: String) throws -> [JobResult] {
        try chain(asOf, pass: pass).map { name, arguments in
            let job = try JobProcess(name, harness: harness, folder: folder(pass),
                                     extra: ["STORE_TIMEOUT_SECONDS": "1", "STORE_MAX_RESPONSE_BYTES": String(1 << 20)])
            try #require(job.isBuilt, "build the jobs first (make test does)")
            let started = Date()
            let process = try job.start(arguments, logs: folder(pass), tag: name)
            var peak = 0
            while process.isRunning {
                peak = max(peak, PeakMemory.highWaterKiB(of: process.processIdentifier) ?? 0)
                Thread.sleep(forTimeInterval: 0.005)
            }
            process.waitUntilExit()
            let summary = (try? String(contentsOf: folder(pass).appendingPathComponent("\(name).out"), encoding: .utf8)) ?? ""
            return JobResult(name: name, status: process.terminationStatus, summary: summary.trimmingCharacters(in: .whitespacesAndNewlines),
                             peakKiB: peak, seconds: Date().timeIntervalSince(started))
        }
    }

    @Test func twentyPercentFaultsOfEveryKindProjectNothingWrongAndARerunConverges() throws {
        let environment = ProcessInfo.processInfo.environment
        var options = WorldOptions(seed: 71, subscriptions: environment["HOSTILE_SUBSCRIPTIONS"].flatMap(Int.init) ?? 200,
                                   months: 6, testShare: 0.03)
        options.faultShares = Dictionary(uniqueKeysWithValues: ProjectionFault.allCases.map { ($0, 0.05) })
        options.asOf = recentAsOf()
        let oversizedBytes = environment["HOSTILE_OVERSIZED_BYTES"].flatMap(Int.init) ?? (4 << 20)

        let clean = try RequeryHarness(name: "hostile_clean", options: options, systemClock: true)
        defer { clean.server.stop(); clean.database.close() }
        for result in try Self.runChain(clean, asOf: options.asOf, pass: "clean") {
            #expect(result.status == 0, "clean \(result.name): \(result.summary)")
        }
        let expected = try StateDigest(clean.database, excluding: ["drift_event"])

        let harness = try RequeryHarness(name: "hostile_faults", options: options, storeFaults: Self.faults(oversizedBytes: oversizedBytes),
                                         clientTimeout: 1, systemClock: true)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let initialStates = try Self.storeStates(db)
        let results = try Self.runChain(harness, asOf: options.asOf, pass: "hostile")
        let injected = harness.injectedFaults
        for result in results {
            #expect([0, 1, 3].contains(result.status), "\(result.name) exited \(result.status): \(result.summary)")
            let line = try #require(result.summary.split(separator: "\n").last.map(String.init), "\(result.name) printed no summary")
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["job"] as? String == result.name, "one JSON summary line naming the job: \(line)")
            // A run that left items failed did not end ok: exit 3 (completed) naming the count and the commonest
            // errors, or exit 1 (could not complete) naming the error; exit 0 only with nothing failed.
            let failed = (object?["counts"] as? [String: Any])?["failed"] as? Int ?? 0
            if failed > 0 {
                #expect([1, 3].contains(result.status), "\(result.name) left \(failed) items failed and exited \(result.status): \(line)")
            }
            if result.status == 3 {
                #expect((object?["error"] as? String)?.contains("\(failed) item") == true && line.contains("commonest errors"),
                        "exit 3 names the failed count and the commonest errors: \(line)")
            }
            if result.status == 1 {
                #expect(((object?["error"] as? String) ?? "").isEmpty == false, "exit 1 names the error: \(line)")
            }
            #expect(result.peakKiB < 512 * 1024, "\(result.name) peaked at \(result.peakKiB) KiB")
            print("hostile job=\(result.name) exit=\(result.status) peak_rss_kib=\(result.peakKiB) "
                  + String(format: "seconds=%.1f", result.seconds) + " summary=\(line)")
        }
        print("hostile injected=\(injected.sorted { $0.key < $1.key })")
        // The faults reached the jobs that call a store: at least one of them finished with exit 1 or 3.
        #expect(results.contains { $0.name != "expire-lapsed" && [1, 3].contains($0.status) },
                "under 20 % faults some store-calling job exits 1 or 3: \(results.map { "\($0.name)=\($0.status)" })")
        let storeFaults = injected.filter { $0.key != "stale" && $0.key != "signature" && $0.key != "bundle" && $0.key != "expired" }
        #expect(storeFaults.count >= 6, "transport faults of most kinds were injected: \(injected)")
        #expect(injected.values.reduce(0, +) > 20, "\(injected)")

        // Nothing unverified: every history row written under faults is one the clean run wrote too.
        let hostile = try StateDigest(db, excluding: ["drift_event"])
        let cleanRows = expected
        // An identity's latest transaction may be a genuine earlier one (a stale answer newer than what was stored),
        // so identities are held to the same original transactions only.
        #expect(Self.originals(hostile).isSubset(of: Self.originals(cleanRows)), "an Apple identity the clean run does not know")
        // Nothing foreign: a stale answer (an earlier transaction served as the latest) is refused for every field, and
        // expire-lapsed derives no expiry for a subscription whose re-query failed.
        var divergent: Set<String> = []
        for table in ["billing_transaction", "subscription_price_change", "google_purchase_token"] {
            let allowed = Set((cleanRows.rows[table] ?? []).map { Self.withoutProvenance($0) })
            let allowedUndated = Set((cleanRows.rows[table] ?? []).map { Self.withoutProvenance($0, date: true) })
            let foreign = (hostile.rows[table] ?? []).filter { row in
                !allowed.contains(Self.withoutProvenance(row))
                    && !(row.contains(#""inbound_event_id":null"#) && allowedUndated.contains(Self.withoutProvenance(row, date: true)))
            }
            #expect(foreign.isEmpty, "\(table): \(foreign.count) rows the clean run never wrote, e.g. \(foreign.prefix(1))")
            for row in foreign { if let name = row.firstMatch(of: /"subscription_id":"(subscription:[^"]*)"/) { divergent.insert(String(name.1)) } }
        }
        // Nothing older: no subscription's store state went back before what was stored.
        let older = try Self.storeStates(db).filter { id, state in (initialStates[id] ?? .distantPast) > state }
        #expect(older.isEmpty, "\(older.count) subscriptions went back to an older store state")

        // A rerun against the healthy store converges to the clean run's state.
        harness.simulator.injectFaults(false)
        for result in try Self.runChain(harness, asOf: options.asOf, pass: "rerun") {
            #expect(result.status == 0, "rerun \(result.name): \(result.summary)")
        }
        let rerun = try StateDigest(db, excluding: ["drift_event"])
        // A genuine earlier state accepted under faults (a stale answer newer than what was stored) leaves the interval
        // of the period it granted; the clean run, which only ever saw the latest state, has none for that period. Such
        // a row is history, not a wrong write, when the clean run's own charges hold that period.
        let earlierPeriods = Self.chargedPeriods(expected)
        let cleanIntervals = Set(expected.rows["entitlement_interval"] ?? [])
        let differences = rerun.mappingRows(of: "entitlement_interval") { row in
            earlierPeriods.contains(Self.intervalPeriod(row)) && !cleanIntervals.contains(row) ? nil : row
        }.differences(from: expected)
        // Strict: expire-lapsed no longer expires a subscription whose stored notification failed to replay under the
        // faults (the rerun replays it; a derived expiry could not be taken back), see docs/RELIABILITY.md.
        #expect(differences.isEmpty, "the rerun without faults differs from the clean run: \(differences)")
        print("hostile rerun equal=\(differences.isEmpty) subscriptions_with_foreign_rows=\(divergent.count)")
    }

    /// A history row without the notification it came from: a charge a re-query wrote is adopted by its notification
    /// when replay-events gets to it (`inbound_event_id` and `raw_payload` set then, `OutcomeRows.insertTransactions`),
    /// so before the rerun it may still carry the re-query's payload and no event. With `date`, `effective_at` goes too:
    /// adoption also takes the notification's instant, and a re-query that met no store instant for a change (an Apple
    /// auto-renew-off row) dates it at the run's as-of until then. The rerun comparison stays strict on every column.
    static func withoutProvenance(_ row: String, date: Bool = false) -> String {
        guard var object = (try? JSONSerialization.jsonObject(with: Data(row.utf8))) as? [String: Any] else { return row }
        object.removeValue(forKey: "inbound_event_id")
        object.removeValue(forKey: "raw_payload")
        if date { object.removeValue(forKey: "effective_at") }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return row }
        return String(decoding: data, as: UTF8.self)
    }

    /// "subscription|start|end" of every charged period in `digest`'s `billing_transaction`.
    static func chargedPeriods(_ digest: StateDigest) -> Set<String> {
        Set((digest.rows["billing_transaction"] ?? []).compactMap { row in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(row.utf8))) as? [String: Any],
                  let start = object["period_start_at"] as? String, let end = object["period_end_at"] as? String,
                  let subscription = object["subscription_id"] as? String,
                  ["PURCHASED", "RENEWED", "RECOVERED", "RESTARTED"].contains(object["event_type"] as? String ?? "") else { return nil }
            return "\(subscription)|\(start)|\(end)"
        })
    }

    /// "subscription|valid_from|valid_until" of one open `entitlement_interval` row; "" for an ended one, which always counts.
    static func intervalPeriod(_ row: String) -> String {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(row.utf8))) as? [String: Any],
              object["ended_at"] is NSNull, let subscription = object["subscription_id"] as? String,
              let from = object["valid_from"] as? String, let until = object["valid_until"] as? String else { return "" }
        return "\(subscription)|\(from)|\(until)"
    }

    /// The original transaction ids of the Apple identities in `digest`.
    static func originals(_ digest: StateDigest) -> Set<String> {
        Set((digest.rows["apple_subscription_identity"] ?? []).map { row in
            row.firstMatch(of: /"original_transaction_id":"[^"]*"/).map { String($0.output) } ?? row
        })
    }

    /// Each subscription's `last_store_state_at` (the store time of the newest state projected).
    static func storeStates(_ db: PostgresConnection) throws -> [String: Date] {
        var states: [String: Date] = [:]
        for row in try db.query("SELECT id::text AS id, last_store_state_at AS at FROM subscription WHERE last_store_state_at IS NOT NULL").rows {
            states[try row.decode(String.self, "id")] = try row.decode(Date.self, "at")
        }
        return states
    }
}

/// A process's peak resident set size from `/proc/<pid>/status` (`VmHWM`).
enum PeakMemory {
    /// KiB, or nil once the process is gone.
    static func highWaterKiB(of pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
}
