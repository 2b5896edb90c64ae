import Foundation
import JobKit
import Testing

/// JobProgress off a terminal: nothing during the quiet seconds, then one JSON record per interval with items done
/// of the total, the rate and the ETA, a final record when the work ends, and its background timer reports while
/// the job is busy (no `advance` needed); on a terminal, one line redrawn in place.
@Suite struct JobProgressTests {
    /// Collects what the reporter writes.
    final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [String] = []
        func append(_ text: String) { lock.lock(); storage.append(text); lock.unlock() }
        var texts: [String] { lock.lock(); defer { lock.unlock() }; return storage }
        /// The JSON objects written, one per line.
        func records() throws -> [[String: Any]] {
            try texts.joined().split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            }
        }
    }

    /// A clock tests move by hand.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var current = Date(timeIntervalSince1970: 1_795_932_000)
        var now: Date { lock.lock(); defer { lock.unlock() }; return current }
        func advance(_ seconds: TimeInterval) { lock.lock(); current += seconds; lock.unlock() }
    }

    @Test func recordsEveryIntervalWithDoneTotalRateAndETA() throws {
        let output = Output()
        let clock = Clock()
        let progress = JobProgress(job: "recover-notifications", label: "backfill", unit: "hours of window", total: 4_080,
                                   style: .jsonRecords, interval: 10, quietSeconds: 3, write: output.append, clock: { clock.now })
        progress.update(done: 10)
        clock.advance(2)
        progress.report(at: clock.now)
        #expect(output.texts.isEmpty, "quiet during the first seconds")
        progress.update(done: 240)
        clock.advance(10)   // 12 s in: 240 of 4080 hours, 20 per second, 192 s left
        progress.report(at: clock.now)
        clock.advance(5)    // within the interval: no record
        progress.report(at: clock.now)
        progress.update(done: 1_020)
        clock.advance(5)    // 22 s in: 1020 hours, 46.4 per second
        progress.report(at: clock.now)
        progress.update(done: 4_080)
        clock.advance(1)
        progress.finish()
        let records = try output.records()
        #expect(records.count == 3)
        let first = try #require(records.first)
        #expect(first["message"] as? String == "progress")
        #expect(first["level"] as? String == "info")
        #expect(first["job"] as? String == "recover-notifications")
        #expect(first["label"] as? String == "backfill")
        #expect(first["unit"] as? String == "hours of window")
        #expect(first["done"] as? Int == 240)
        #expect(first["total"] as? Int == 4_080)
        #expect(first["rate_per_second"] as? Double == 20)
        #expect(first["eta_seconds"] as? Double == 192)
        #expect(first["elapsed_seconds"] as? Double == 12)
        #expect(first["final"] as? Bool == false)
        #expect(first["time"] as? String == "2026-11-29T06:00:12.000000Z")
        #expect(records[1]["done"] as? Int == 1_020)
        #expect(records[1]["rate_per_second"] as? Double == 46.4)
        let last = try #require(records.last)
        #expect(last["final"] as? Bool == true)
        #expect(last["done"] as? Int == 4_080)
        #expect(last["eta_seconds"] as? Double == 0)
        progress.report(at: clock.now.addingTimeInterval(60))
        #expect(try output.records().count == 3, "nothing after finish")
    }

    @Test func aShortJobWritesNothingAndAnUnknownTotalHasNoETA() throws {
        let output = Output()
        let clock = Clock()
        let short = JobProgress(job: "j", label: "quick", total: 5, style: .jsonRecords, interval: 10, quietSeconds: 3,
                                write: output.append, clock: { clock.now })
        short.advance(by: 5)
        clock.advance(1)
        short.finish()
        #expect(output.texts.isEmpty, "a job done within the quiet seconds reports nothing, not even a final record")
        let open = JobProgress(job: "j", label: "re-querying", total: nil, style: .jsonRecords, interval: 10, quietSeconds: 3,
                               write: output.append, clock: { clock.now })
        let counted = Output()
        open.follow { counted.texts.count }
        counted.append("x")
        counted.append("y")
        clock.advance(4)
        open.report(at: clock.now)
        let record = try #require(try output.records().first)
        #expect(record["done"] as? Int == 2, "read from the followed tally")
        #expect(record["total"] is NSNull)
        #expect(record["eta_seconds"] is NSNull)
    }

    @Test func theTimerReportsWhileTheJobIsBusy() throws {
        let output = Output()
        let progress = JobProgress(job: "j", label: "busy", total: 100, style: .jsonRecords, interval: 0.2, quietSeconds: 0.1,
                                   write: output.append).start()
        progress.advance(by: 7)
        Thread.sleep(forTimeInterval: 1.5)   // no advance: the job waits on one slow item
        let during = try output.records().count
        progress.finish()
        #expect(during >= 2, "records came from the timer: \(output.texts)")
        let records = try output.records()
        #expect(records.allSatisfy { $0["done"] as? Int == 7 && $0["total"] as? Int == 100 })
        #expect(records.last?["final"] as? Bool == true)
    }

    @Test func onATerminalOneLineIsRedrawnInPlace() {
        let output = Output()
        let clock = Clock()
        let progress = JobProgress(job: "j", label: "backfill", unit: "hours", total: 200, style: .liveLine, interval: 10, quietSeconds: 1,
                                   write: output.append, clock: { clock.now })
        progress.update(done: 50)
        clock.advance(10)
        progress.report(at: clock.now)
        progress.update(done: 200)
        clock.advance(30)
        progress.finish()
        #expect(output.texts == ["\r\u{1B}[Kbackfill 50/200 hours 25.0% · 5.0/s · ETA 30s",
                                 "\r\u{1B}[Kbackfill 200/200 hours 100.0% · 5.0/s · ETA 0s\n"])
    }

    @Test func durationsReadAsSecondsMinutesHours() {
        let snapshot = JobProgressSnapshot(done: 1, total: 4_001, elapsed: 1)
        #expect(snapshot.line(label: "x", unit: "items").hasSuffix("ETA 1h06m"))
        #expect(JobProgressSnapshot(done: 10, total: 100, elapsed: 10).line(label: "x", unit: "items").hasSuffix("ETA 1m30s"))
        #expect(JobProgressSnapshot(done: 0, total: nil, elapsed: 75).line(label: "x", unit: "items") == "x 0 items · 0.0/s · elapsed 1m15s")
    }
}
