import BillingCore
import Foundation
import RateLimiting

/// The limit for every store endpoint: documented production defaults, Apple sandbox at 10%, and
/// overrides from configuration such as `apple.getAllSubscriptionStatuses=20,google.subscriptionsv2.get=10`.
public struct StoreRateLimits: Sendable, Equatable {
    private var limits: [StoreEndpoint: RateLimit]

    /// The defaults for `appleEnvironment` (Sandbox: Apple's limits at 10%) with no overrides.
    public init(appleEnvironment: AppleEnvironment = .production) {
        var limits: [StoreEndpoint: RateLimit] = [:]
        for endpoint in StoreEndpoint.allCases {
            let production = endpoint.productionLimit
            limits[endpoint] = endpoint.isApple && appleEnvironment == .sandbox ? production.scaled(by: 0.1) : production
        }
        self.limits = limits
    }

    /// The defaults with `overrides` applied (see `parseOverrides`).
    public init(appleEnvironment: AppleEnvironment = .production, overrides: String) throws(RateLimitError) {
        self.init(appleEnvironment: appleEnvironment)
        for override in try Self.parseOverrides(overrides) {
            var limit = self.limit(for: override.endpoint)
            switch override.setting {
            case .perSecond(let rate, let burst):
                limit.refillPerSecond = rate
                limit.capacity = burst ?? max(1, rate)
            case .dailyBudget(let budget):
                limit.dailyBudget = budget
            }
            limits[override.endpoint] = limit
        }
    }

    /// The limit for one endpoint.
    public func limit(for endpoint: StoreEndpoint) -> RateLimit {
        limits[endpoint] ?? endpoint.productionLimit
    }

    /// What one override entry sets.
    public enum Setting: Sendable, Equatable {
        /// `key=N`: N calls per second, with one second of burst; `key=N/B`: N calls per second, at most B at once.
        case perSecond(Double, burst: Double? = nil)
        /// `key.daily=N`: at most N calls per UTC day.
        case dailyBudget(Int)
    }

    /// Parses `key=value` entries separated by commas (spaces and empty entries ignored). Keys are
    /// `StoreEndpoint` raw values; `key=N` sets N calls/s, `key=N/B` also the burst B (a small burst keeps several
    /// processes that share a bucket from bunching calls at the store), `key.daily=N` a daily budget. Errors name the entry.
    public static func parseOverrides(_ text: String) throws(RateLimitError) -> [(endpoint: StoreEndpoint, setting: Setting)] {
        var result: [(endpoint: StoreEndpoint, setting: Setting)] = []
        for rawEntry in text.split(separator: ",") {
            let entry = rawEntry.trimmingCharacters(in: .whitespaces)
            if entry.isEmpty { continue }
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw .invalidOverride(entry: entry, reason: "expected key=value") }
            var key = parts[0].trimmingCharacters(in: .whitespaces)
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            let isDaily = key.hasSuffix(".daily")
            if isDaily { key = String(key.dropLast(".daily".count)) }
            guard let endpoint = StoreEndpoint(rawValue: key) else {
                let known = StoreEndpoint.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidOverride(entry: entry, reason: "unknown endpoint '\(key)'; known: \(known)")
            }
            if isDaily {
                guard let budget = Int(value), budget > 0 else {
                    throw .invalidOverride(entry: entry, reason: "daily budget must be a positive integer, got '\(value)'")
                }
                result.append((endpoint, .dailyBudget(budget)))
            } else {
                let numbers = value.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map { Double($0) }
                guard let rate = numbers[0], rate.isFinite, rate > 0 else {
                    throw .invalidOverride(entry: entry, reason: "rate must be a positive number of calls per second, got '\(value)'")
                }
                var burst: Double?
                if numbers.count == 2 {
                    guard let value = numbers[1], value.isFinite, value >= 1 else {
                        throw .invalidOverride(entry: entry, reason: "burst must be a number of calls, at least 1, after '/'")
                    }
                    burst = value
                }
                result.append((endpoint, .perSecond(rate, burst: burst)))
            }
        }
        return result
    }
}
