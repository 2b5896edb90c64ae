import Foundation

/// What world to generate: seed, size, span, as-of instant, store mix and injected faults.
public struct WorldOptions: Sendable, Hashable {
    /// The PRNG seed; the same options give byte-identical worlds.
    public var seed: UInt64
    /// Number of subscriptions (store purchases) to generate (10k…2M for demos; any size ≥ 1 works).
    public var subscriptions: Int
    /// Months of history before `asOf` in which subscriptions start (1…36).
    public var months: Int
    /// The instant the world is generated as of; nothing happens after it.
    public var asOf: Date
    /// Share of subscriptions bought through Apple (the rest through Google Play).
    public var appleShare: Double
    /// Share of subscriptions that are test purchases (Apple Sandbox, Google `testPurchase`).
    public var testShare: Double
    /// Share of subscriptions receiving each kind of injected fault (kinds absent: 0).
    public var faultShares: [ProjectionFault: Double]
    /// Behavioural rates.
    public var rates: WorldRates

    /// Creates options; defaults give a 10k, 12-month world as of 2026-11-29 with no faults.
    public init(seed: UInt64 = 1, subscriptions: Int = 10_000, months: Int = 12,
                asOf: Date = Date(timeIntervalSince1970: 1_795_910_400), appleShare: Double = 0.55,
                testShare: Double = 0.01, faultShares: [ProjectionFault: Double] = [:], rates: WorldRates = .standard) {
        self.seed = seed
        self.subscriptions = subscriptions
        self.months = min(max(months, 1), 36)
        self.asOf = asOf
        self.appleShare = appleShare
        self.testShare = testShare
        self.faultShares = faultShares
        self.rates = rates
    }

    /// Every fault kind at `share` (e.g. 0.01 = 1% of subscriptions per kind, where the kind applies).
    public static func allFaults(_ share: Double) -> [ProjectionFault: Double] {
        Dictionary(uniqueKeysWithValues: ProjectionFault.allCases.map { ($0, share) })
    }

    /// Parses `kind=share,kind=share` (kind names as in `ProjectionFault`, or `all`).
    public static func parseFaults(_ text: String) throws -> [ProjectionFault: Double] {
        var shares: [ProjectionFault: Double] = [:]
        for part in text.split(separator: ",") where !part.isEmpty {
            let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pieces.count == 2, let share = Double(pieces[1]), share >= 0, share <= 1 else {
                throw WorldError.badOption("fault share `\(part)` is not kind=share with share in 0…1")
            }
            if pieces[0] == "all" {
                shares.merge(allFaults(share)) { _, new in new }
            } else if let kind = ProjectionFault(rawValue: pieces[0]) {
                shares[kind] = share
            } else {
                throw WorldError.badOption("unknown fault kind `\(pieces[0])`; known: \(ProjectionFault.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        return shares
    }
}
