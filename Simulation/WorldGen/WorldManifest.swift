import Foundation

/// The manifest of a generated world: options, counts and every injected fault (JSON, sorted keys).
public struct WorldManifest: Sendable, Hashable, Codable {
    public var seed: UInt64
    public var subscriptions: Int
    public var months: Int
    public var asOf: String
    public var appleShare: Double
    public var testShare: Double
    public var faultShares: [String: Double]
    /// Row and object counts by name (e.g. `billing_transaction`, `apple_notifications`).
    public var counts: [String: Int]
    /// Every injected fault, ordered by subscription then kind.
    public var faults: [InjectedFault]
    /// Every discrepancy injected into the store report files (nil when no reports were written).
    public var reportDiscrepancies: [ReportDiscrepancy]?

    /// The manifest as pretty JSON with sorted keys.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
