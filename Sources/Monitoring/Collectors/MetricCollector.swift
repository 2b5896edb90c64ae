import Foundation
import Postgres

/// What every collector reads: the database, the instant the counts are as of, and the configurable windows.
public struct CollectorInput {
    public let database: PostgresConnection
    public let asOf: Date
    /// PENDING subscriptions older than this many hours are counted as stale.
    public let pendingHours: Int

    /// Input for one run of the collectors.
    public init(database: PostgresConnection, asOf: Date, pendingHours: Int) {
        self.database = database
        self.asOf = asOf
        self.pendingHours = pendingHours
    }
}

/// Helpers shared by the collectors: grouped counts with every expected series present (zeros included), so alerts
/// and thresholds see a series before it first turns non-zero.
enum GroupedCount {
    /// The providers a store-facing metric is labelled with.
    static let providers = ["apple", "google"]

    /// Runs `sql` (which selects the label columns `labels` and a numeric column `n`) and returns one sample per
    /// combination in `expected` (label values in `labels` order) plus any other combination the query returned.
    static func samples(_ database: PostgresConnection, _ sql: String, _ parameters: [any PostgresEncodable],
                        labels: [String], expected: [[String]]) throws -> [MetricSample] {
        var values: [[String]: Double] = [:]
        for row in try database.query(sql, parameters).rows {
            let key = try labels.map { try row.decode(String.self, $0) }
            values[key, default: 0] += try row.decode(Double.self, "n")
        }
        var keys = expected
        keys += values.keys.filter { !expected.contains($0) }.sorted { $0.joined(separator: "\u{1}") < $1.joined(separator: "\u{1}") }
        return keys.map { key in MetricSample(Array(zip(labels, key)), values[key] ?? 0) }
    }

    /// Every combination of the given label value lists, in order.
    static func product(_ lists: [String]...) -> [[String]] {
        lists.reduce([[]]) { partial, list in partial.flatMap { prefix in list.map { prefix + [$0] } } }
    }
}
