import Foundation
import JobKit

/// The tunables of one `requery-at-risk` run, parsed from the command line.
public struct RequeryOptions: Sendable, Equatable {
    /// Lease key shared by the processes of one run (default: the `--as-of` date).
    public var runKey: String
    public var asOf: Date
    /// Per-run cap on selected subscriptions.
    public var limit: Int
    /// "Ends within" window for the period-ending category, in days.
    public var windowDays: Int
    /// Subscriptions verified within this many hours are skipped.
    public var freshHours: Int
    /// Refunds / revocations within this many days are re-checked.
    public var refundDays: Int
    /// Per-category share of `limit` (0…1); absent means 1.
    public var shares: [RequeryCategory: Double]
    /// The categories selected (all by default).
    public var categories: Set<RequeryCategory>
    /// Worker threads in this process. Each worker waits on one store call at a time, so the store's latency, not
    /// this machine, bounds what few workers can do: against Apple's or Google's real hosts (~100–300 ms a call) two
    /// workers could not use even half of a 50 requests/s limit. The default of 4 keeps a loopback or nearby store
    /// busy on 2 cores as well (measured in Benchmarks/results.md); raise it for distant stores, the limiter caps the rate.
    public var threads: Int
    /// Items claimed per lease.
    public var batchSize: Int
    /// Claims older than this can be taken over (a killed process loses nothing).
    public var leaseTimeoutSeconds: Int
    /// A single subscription to re-query (uuid, originalTransactionId or purchase token).
    public var subscription: String?

    /// The default cap when `--limit` is not given.
    public static let defaultLimit = 100_000

    /// Options with the documented defaults.
    public init(asOf: Date, runKey: String? = nil, limit: Int = RequeryOptions.defaultLimit) {
        self.asOf = asOf
        self.runKey = runKey ?? Self.dateKey(asOf)
        self.limit = limit
        windowDays = 2
        freshHours = 6
        refundDays = 30
        shares = [:]
        categories = Set(RequeryCategory.allCases)
        threads = 4
        batchSize = 20
        leaseTimeoutSeconds = 600
        subscription = nil
    }

    /// The cap of one category: `ceil(share × limit)`.
    public func cap(of category: RequeryCategory) -> Int {
        let share = min(max(shares[category] ?? 1, 0), 1)
        return Int((share * Double(limit)).rounded(.up))
    }

    /// `YYYY-MM-DD` of an instant, in UTC.
    public static func dateKey(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// Parses the job's options from `arguments` (`--limit`, `--as-of` and the job-specific ones).
    public static func parse(_ arguments: JobArguments, asOf: Date) throws -> RequeryOptions {
        var options = RequeryOptions(asOf: asOf, runKey: arguments.values["run-key"], limit: arguments.limit ?? defaultLimit)
        func integer(_ name: String, minimum: Int) throws -> Int? {
            guard let text = arguments.values[name] else { return nil }
            guard let value = Int(text), value >= minimum else { throw JobError.usage("--\(name) must be a whole number ≥ \(minimum), not '\(text)'") }
            return value
        }
        options.threads = try integer("threads", minimum: 1) ?? options.threads
        options.windowDays = try integer("window-days", minimum: 0) ?? options.windowDays
        options.freshHours = try integer("fresh-hours", minimum: 0) ?? options.freshHours
        options.refundDays = try integer("refund-days", minimum: 0) ?? options.refundDays
        options.batchSize = try integer("batch-size", minimum: 1) ?? options.batchSize
        options.leaseTimeoutSeconds = try integer("lease-seconds", minimum: 1) ?? options.leaseTimeoutSeconds
        options.subscription = arguments.values["subscription"]
        if let text = arguments.values["categories"] {
            options.categories = Set(try text.split(separator: ",").map { try category(String($0)) })
        }
        if let text = arguments.values["shares"] {
            for part in text.split(separator: ",") {
                let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
                guard pieces.count == 2, let share = Double(pieces[1]), share >= 0, share <= 1 else {
                    throw JobError.usage("--shares takes category=share with share in 0…1, not '\(part)'")
                }
                options.shares[try category(pieces[0])] = share
            }
        }
        return options
    }

    private static func category(_ name: String) throws -> RequeryCategory {
        guard let category = RequeryCategory(rawValue: name) else {
            throw JobError.usage("unknown category '\(name)'; known: \(RequeryCategory.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return category
    }
}
