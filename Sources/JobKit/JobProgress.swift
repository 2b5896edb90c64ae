import Foundation
import Postgres

/// Progress of a long job on stderr: items done of the total, the rate and the time left. For a person at a
/// terminal (text logs) it is one line redrawn in place; otherwise (journald, cron's log file, `--log-format json`)
/// it is one JSON record every `interval` seconds. Nothing is written for a job that ends within its first
/// `quietSeconds`. A background timer reports even while the job waits on one slow item.
public final class JobProgress: @unchecked Sendable {
    /// How progress is shown.
    public enum Style: Sendable, Equatable {
        /// Nothing is written.
        case off
        /// One line redrawn in place (carriage return), ended by a newline when the work is finished.
        case liveLine
        /// One JSON line per report (`"message":"progress"` with numbers for done, total, rate and ETA).
        case jsonRecords
    }

    /// The default seconds between JSON records (`JOB_PROGRESS_SECONDS` overrides it).
    public static let defaultRecordSeconds: TimeInterval = 10
    /// How long a job runs before its first report.
    public static let defaultQuietSeconds: TimeInterval = 3

    private let lock = NSLock()
    private let job: String
    private let label: String
    private let unit: String
    private let style: Style
    private let interval: TimeInterval
    private let quietSeconds: TimeInterval
    private let write: @Sendable (String) -> Void
    private let clock: @Sendable () -> Date
    private let started: Date
    private var total: Int?
    private var done = 0
    private var source: (@Sendable () -> Int)?
    private var lastReport: Date?
    private var reported = false
    private var finished = false
    private var timer: DispatchSourceTimer?

    /// A progress reporter for `total` items (nil: not known yet) of `label`, counted in `unit`. `start()` begins the
    /// timed reports; tests drive `report(at:)` with their own clock instead.
    public init(job: String, label: String, unit: String = "items", total: Int?, style: Style,
                interval: TimeInterval = JobProgress.defaultRecordSeconds, quietSeconds: TimeInterval = JobProgress.defaultQuietSeconds,
                write: @escaping @Sendable (String) -> Void = JobProgress.standardError, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.job = job
        self.label = label
        self.unit = unit
        self.total = total
        self.style = style
        self.interval = style == .liveLine ? min(interval, 0.5) : interval
        self.quietSeconds = quietSeconds
        self.write = write
        self.clock = clock
        self.started = clock()
    }

    /// Starts the background timer that reports while the work runs (a no-op when `style` is `.off`).
    @discardableResult
    public func start() -> JobProgress {
        guard style != .off else { return self }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + min(interval, quietSeconds), repeating: min(interval, 1))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.report(at: self.clock())
        }
        lock.lock()
        self.timer = timer
        lock.unlock()
        timer.resume()
        return self
    }

    /// Records `count` more items done.
    public func advance(by count: Int = 1) {
        lock.lock()
        done += count
        lock.unlock()
    }

    /// Sets the number of items done (for work measured as a position, e.g. hours of a time window covered).
    public func update(done value: Int) {
        lock.lock()
        done = value
        lock.unlock()
    }

    /// Sets the total once it is known.
    public func update(total value: Int?) {
        lock.lock()
        total = value
        lock.unlock()
    }

    /// Reads the count done from `source` at every report (a tally other threads update) instead of `advance`.
    public func follow(_ source: @escaping @Sendable () -> Int) {
        lock.lock()
        self.source = source
        lock.unlock()
    }

    /// Stops the timer; a job that reported at all reports once more with the final count (the live line ends).
    public func finish() {
        lock.lock()
        let timer = self.timer
        self.timer = nil
        lock.unlock()
        timer?.cancel()
        report(at: clock(), final: true)
    }

    /// Writes a report if one is due at `now`: past the quiet period and `interval` after the last one (a live line
    /// at most twice a second). `final` reports regardless of the interval, once, and only if anything was reported.
    public func report(at now: Date, final: Bool = false) {
        lock.lock()
        defer { lock.unlock() }
        guard style != .off, !finished else { return }
        if let source { done = source() }
        if final {
            finished = true
            guard reported else { return }
        } else {
            guard now.timeIntervalSince(started) >= quietSeconds else { return }
            if let lastReport, now.timeIntervalSince(lastReport) < interval { return }
        }
        lastReport = now
        reported = true
        let snapshot = JobProgressSnapshot(done: done, total: total, elapsed: now.timeIntervalSince(started))
        switch style {
        case .off: return
        case .liveLine: write("\r\u{1B}[K" + snapshot.line(label: label, unit: unit) + (final ? "\n" : ""))
        case .jsonRecords: write(snapshot.record(job: job, label: label, unit: unit, at: now, final: final) + "\n")
        }
    }

    /// Writes text to stderr as it is (no newline added).
    public static let standardError: @Sendable (String) -> Void = { text in
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// One moment of a job's progress and what follows from it: the rate so far and the time left at that rate.
public struct JobProgressSnapshot: Sendable, Equatable {
    public let done: Int
    public let total: Int?
    public let elapsed: TimeInterval

    /// `done` of `total` items (nil: unknown) after `elapsed` seconds.
    public init(done: Int, total: Int?, elapsed: TimeInterval) {
        self.done = done
        self.total = total
        self.elapsed = elapsed
    }

    /// Items per second so far.
    public var rate: Double { elapsed > 0 ? Double(done) / elapsed : 0 }

    /// Seconds left at the rate so far; nil without a total or a rate.
    public var etaSeconds: Double? {
        guard let total, rate > 0 else { return nil }
        return Double(max(total - done, 0)) / rate
    }

    /// The percentage done, when the total is known.
    public var percent: Double? {
        guard let total, total > 0 else { return nil }
        return min(100, Double(done) * 100 / Double(total))
    }

    /// The terminal line: `backfill 1200/5000 items 24.0% · 85.3/s · ETA 45s`.
    public func line(label: String, unit: String) -> String {
        var text = "\(label) \(done)" + (total.map { "/\($0)" } ?? "") + " \(unit)"
        if let percent { text += String(format: " %.1f%%", percent) }
        text += String(format: " · %.1f/s", rate)
        text += " · " + (etaSeconds.map { "ETA " + Self.duration($0) } ?? "elapsed " + Self.duration(elapsed))
        return text
    }

    /// The JSON record: the log line's fields (`time`, `level`, `job`, `message`) and numbers a tool can read.
    public func record(job: String, label: String, unit: String, at instant: Date, final: Bool) -> String {
        var fields = [
            "\"done\":\(done)",
            "\"elapsed_seconds\":\(Self.number(elapsed))",
            "\"eta_seconds\":\(etaSeconds.map(Self.number) ?? "null")",
            "\"final\":\(final)",
            "\"job\":\(JSONLine.quote(job))",
            "\"label\":\(JSONLine.quote(label))",
            "\"level\":\"info\"",
            "\"message\":\"progress\"",
            "\"rate_per_second\":\(Self.number(rate))",
        ]
        fields.append("\"time\":\(JSONLine.quote(PostgresTimestamp.iso8601(instant)))")
        fields.append("\"total\":\(total.map(String.init) ?? "null")")
        fields.append("\"unit\":\(JSONLine.quote(unit))")
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Seconds as `45s`, `12m05s` or `3h07m`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole)s" }
        if whole < 3_600 { return String(format: "%dm%02ds", whole / 60, whole % 60) }
        return String(format: "%dh%02dm", whole / 3_600, whole % 3_600 / 60)
    }

    /// A number with at most one decimal place, as JSON.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return String(format: "%.1f", value)
    }
}
