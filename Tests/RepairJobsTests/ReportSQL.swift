import Foundation
import Postgres
import TestSupport
import Testing

/// Runs a report file of `Reports/` the way build-reports binds it: the five contract parameters, in order.
struct ReportSQL {
    /// The as-of instant, the first and last months (any instant in them), the reporting currency and the basis.
    var asOf: String
    var firstMonth: String
    var lastMonth: String
    var currency = "USD"
    var basis = "corrected"

    /// The text of `Reports/<name>.sql`.
    static func text(_ name: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("Reports/\(name).sql"), encoding: .utf8)
    }

    /// The rows of report `name` as text by column (NULL absent), for the hand worlds.
    static func rows(_ db: PostgresConnection, _ name: String, asOf: String, from: String, to: String,
                     basis: String = "corrected") throws -> [[String: String]] {
        let result = try db.query(text(name), [asOf, from, to, "USD", basis])
        return try result.rows.map { row in
            var values: [String: String] = [:]
            for column in result.columns { if let value = try row.decodeIfPresent(String.self, column) { values[column] = value } }
            return values
        }
    }

    /// The report's rows.
    func rows(_ name: String, _ db: PostgresConnection) throws -> [PostgresRow] {
        try db.query(Self.text(name), [asOf, firstMonth, lastMonth, currency, basis]).rows
    }

    /// The bridge (Reports/mrr_bridge.sql) by "month provider view currency", each row's integer columns by name.
    /// Every hand world that reads the bridge also proves, for its parameters and both bases, that the contributions
    /// and snapshots of migration 0022 are row for row those of 0017 and 0013 (`ContributionReference`).
    func bridge(_ db: PostgresConnection, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: [String: Int64]] {
        for basis in ["corrected", "known"] {
            let differences = try ContributionReference.differences(db, [asOf, firstMonth, lastMonth, basis])
            #expect(differences.snapshot == 0, "snapshots differ from 0013's (\(basis))", sourceLocation: sourceLocation)
            #expect(differences.contribution == 0, "contributions differ from 0017's (\(basis))", sourceLocation: sourceLocation)
        }
        var cells: [String: [String: Int64]] = [:]
        for row in try rows("mrr_bridge", db) {
            let key = try ["month", "provider", "view", "currency"].map { try row.decode(String.self, $0) }.joined(separator: " ")
            cells[key] = try Dictionary(uniqueKeysWithValues: Self.bridgeColumns.map { ($0, try row.decode(Int64.self, $0)) })
        }
        return cells
    }

    /// The bridge's money and count columns.
    static let bridgeColumns = ["start_mrr_micros", "fx_micros", "new_micros", "expansion_micros", "contraction_micros",
                                "churn_micros", "reactivation_micros", "mrr_micros", "new_count", "expansion_count",
                                "contraction_count", "churn_count", "reactivation_count", "paying_accounts_count"]

    /// True when `end = start + fx + new + expansion − contraction − churn + reactivation` holds on the row.
    static func bridgeHolds(_ cell: [String: Int64]) -> Bool {
        func v(_ column: String) -> Int64 { cell[column] ?? 0 }
        return v("mrr_micros") == v("start_mrr_micros") + v("fx_micros") + v("new_micros") + v("expansion_micros")
            - v("contraction_micros") - v("churn_micros") + v("reactivation_micros")
    }

    /// `numerator / denominator` rounded half to even (numerator >= 0, denominator > 0): the reports' one rounding.
    static func halfEven(_ numerator: Int128, _ denominator: Int128) -> Int128 {
        let quotient = numerator / denominator, remainder = numerator % denominator
        if remainder * 2 > denominator || (remainder * 2 == denominator && quotient % 2 != 0) { return quotient + 1 }
        return quotient
    }

    /// A decimal rate as written by PostgreSQL (`1.085000000000`) scaled by 10^12, exactly.
    static func scaledRate(_ text: String) -> Int128? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard let whole = Int128(parts[0]) else { return nil }
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        guard fraction.count <= 12, let digits = Int128(fraction.isEmpty ? "0" : fraction) else { return nil }
        var scale: Int128 = 1
        for _ in 0..<(12 - fraction.count) { scale *= 10 }
        return whole * 1_000_000_000_000 + digits * scale
    }
}
