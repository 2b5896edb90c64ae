import Foundation
import RateLimiting

/// Which rate limits the simulator enforces: the stores' published ones, with per-endpoint overrides.
public struct RateLimitConfiguration: Sendable, Equatable {
    /// When false every request passes.
    public var enabled: Bool
    /// Limits that replace the defaults of `SimulatorEndpoint.defaultLimit(sandbox:)`.
    public var overrides: [SimulatorEndpoint: RateLimit]

    /// Makes a configuration.
    public init(enabled: Bool = true, overrides: [SimulatorEndpoint: RateLimit] = [:]) {
        self.enabled = enabled
        self.overrides = overrides
    }

    /// The limit applied to `endpoint`.
    public func limit(for endpoint: SimulatorEndpoint, sandbox: Bool) -> RateLimit {
        overrides[endpoint] ?? endpoint.defaultLimit(sandbox: sandbox)
    }

    /// Parses `--limits-config` text: `endpoint=rate[/capacity],…`, e.g. `apple.getAllSubscriptionStatuses=50,google.voidedpurchases.list=1/30`.
    public static func parseOverrides(_ text: String) throws(SimulatorError) -> [SimulatorEndpoint: RateLimit] {
        var overrides: [SimulatorEndpoint: RateLimit] = [:]
        for item in text.split(separator: ",") where !item.trimmingCharacters(in: .whitespaces).isEmpty {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, let endpoint = SimulatorEndpoint(rawValue: pair[0]), endpoint != .unknown else {
                throw .invalidOption("--limits-config: unknown endpoint in \"\(item)\"; known: "
                    + SimulatorEndpoint.allCases.filter { $0 != .unknown }.map(\.rawValue).joined(separator: ", "))
            }
            let numbers = pair[1].split(separator: "/").map { Double($0) }
            guard (1...2).contains(numbers.count), let rate = numbers[0], rate > 0,
                  numbers.count == 1 || (numbers[1] ?? 0) >= 1 else {
                throw .invalidOption("--limits-config: \"\(item)\" needs a positive rate and an optional capacity ≥ 1")
            }
            overrides[endpoint] = RateLimit(perSecond: rate, capacity: numbers.count == 2 ? numbers[1] : nil)
        }
        return overrides
    }
}
