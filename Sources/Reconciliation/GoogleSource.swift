import Foundation
import Postgres

/// Gathers Google units per period: earnings rows by order (estimated-sales rows for a month without earnings
/// files) and the database's GOOGLE rows with an order ID and a non-zero amount.
struct GoogleSource {
    let database: PostgresConnection
    /// Database rows recorded after this instant are left out.
    let knownAt: Date

    /// The report side of `periods`, by period label, and the files read. A month with earnings files uses them;
    /// a month with only estimated-sales files uses those.
    func report(_ periods: [ReconciliationPeriod], only: Set<Int64>?) throws -> ([String: [UnitKey: UnitSide]], [ReportFileRef]) {
        let labels = periods.map(\.label)
        let files = try ReportFileRef.current(database, kinds: ["googleEarnings", "googleEstimatedSales"], periods: labels, only: only)
        let earningsPeriods = Set(files.filter { $0.kind == "googleEarnings" }.map(\.period))
        let used = files.filter { $0.kind == "googleEarnings" || !earningsPeriods.contains($0.period) }
        var result: [String: [UnitKey: UnitSide]] = [:]
        let earningsIDs = used.filter { $0.kind == "googleEarnings" }.map { String($0.id) }
        let salesIDs = used.filter { $0.kind == "googleEstimatedSales" }.map { String($0.id) }
        if !earningsIDs.isEmpty {
            for row in try database.query("""
                SELECT f.period, r.order_id, r.transaction_type, coalesce(r.refund_type, '') AS refund_type, r.product_id, r.buyer_country, r.buyer_currency,
                       r.amount_buyer_micros, extract(epoch FROM r.transaction_at)::int8 AS at
                FROM google_earnings_row r JOIN report_file f ON f.id = r.report_file_id
                WHERE r.report_file_id = ANY($1::int8[]) ORDER BY r.report_file_id, r.line
                """, [PostgresTextArray(earningsIDs)]).rows {
                let period = try row.decode(String.self, "period")
                let line = GoogleEarningsLine(
                    order: try row.decode(String.self, "order_id"), transactionType: try row.decode(String.self, "transaction_type"),
                    refundType: try row.decode(String.self, "refund_type"), productId: try row.decode(String.self, "product_id"),
                    country: try row.decode(String.self, "buyer_country"), currency: try row.decode(String.self, "buyer_currency"),
                    amountMicros: try row.decode(Int64.self, "amount_buyer_micros"), at: try row.decode(Int64.self, "at"))
                GoogleEarningsFold.add(line, to: &result[period, default: [:]])
            }
        }
        if !salesIDs.isEmpty {
            for row in try database.query("""
                SELECT f.period, r.order_number, r.financial_status, r.sku_id, r.country_of_buyer, r.currency_of_sale,
                       r.charged_amount_micros, r.taxes_collected_micros, extract(epoch FROM r.order_charged_at)::int8 AS at
                FROM google_estimated_sales_row r JOIN report_file f ON f.id = r.report_file_id
                WHERE r.report_file_id = ANY($1::int8[]) ORDER BY r.report_file_id, r.line
                """, [PostgresTextArray(salesIDs)]).rows {
                let refund = try row.decode(String.self, "financial_status") == "Refund"
                let key = UnitKey(order: try row.decode(String.self, "order_number"), side: refund ? "refund" : "charge")
                let period = try row.decode(String.self, "period")
                var unit = result[period, default: [:]][key] ?? UnitSide()
                let sign: Int64 = refund ? -1 : 1
                let charged = try row.decode(Int64.self, "charged_amount_micros")
                let taxes = try row.decode(Int64.self, "taxes_collected_micros")
                // Refund rows may be written with either sign: the unit's side decides.
                unit.gross += sign * abs(charged)
                unit.tax -= sign * abs(taxes)
                unit.count += 1
                if unit.currency.isEmpty { unit.currency = try row.decode(String.self, "currency_of_sale") }
                if unit.productId.isEmpty { unit.productId = try row.decode(String.self, "sku_id") }
                if unit.country.isEmpty { unit.country = try row.decode(String.self, "country_of_buyer") }
                unit.at = min(unit.at, try row.decode(Int64.self, "at"))
                unit.isTest = false
                result[period, default: [:]][key] = unit
            }
        }
        return (result, used)
    }

    /// The database side of `periods`, by period label: every GOOGLE row with an order ID and a non-zero amount
    /// effective in one of them and recorded by `knownAt`.
    func database(_ periods: [ReconciliationPeriod]) throws -> [String: [UnitKey: UnitSide]] {
        guard let first = periods.map(\.start).min(), let last = periods.map(\.end).max() else { return [:] }
        var result: [String: [UnitKey: UnitSide]] = [:]
        let rows = try database.query("""
            SELECT b.transaction_key, b.order_id, b.amount_micros, b.currency_code,
                   coalesce(b.country_code, (SELECT c.country_code FROM billing_transaction c
                                             WHERE c.transaction_key = b.refunded_transaction_key), '') AS country,
                   coalesce(b.product_id, (SELECT c.product_id FROM billing_transaction c
                                           WHERE c.transaction_key = b.refunded_transaction_key), '') AS product,
                   b.is_test, extract(epoch FROM b.effective_at)::int8 AS at
            FROM billing_transaction b
            WHERE b.provider = 'GOOGLE' AND b.order_id IS NOT NULL AND b.amount_micros IS NOT NULL AND b.amount_micros <> 0
              AND b.event_type = ANY(\(MoneyEvents.sqlArray))
              AND b.effective_at >= to_timestamp($1) AND b.effective_at < to_timestamp($2) AND b.recorded_at <= $3
            ORDER BY b.transaction_key
            """, [first, last, knownAt]).rows
        for row in rows {
            Self.addDatabaseRow(
                GoogleDatabaseRow(key: try row.decode(String.self, "transaction_key"), order: try row.decode(String.self, "order_id"),
                                  amount: try row.decode(Int64.self, "amount_micros"), currency: try row.decode(String.self, "currency_code"),
                                  country: try row.decode(String.self, "country"), product: try row.decode(String.self, "product"),
                                  isTest: try row.decode(Bool.self, "is_test"), at: try row.decode(Int64.self, "at")),
                periods: periods, to: &result)
        }
        return result
    }

    /// Adds a database row to its period's unit (rows in transaction-key order: the unit keeps the first row's
    /// currency, and the first non-empty product and country).
    static func addDatabaseRow(_ row: GoogleDatabaseRow, periods: [ReconciliationPeriod], to result: inout [String: [UnitKey: UnitSide]]) {
        guard let period = periods.first(where: { $0.contains(row.at) }) else { return }
        let key = UnitKey(order: row.order, side: row.amount > 0 ? "charge" : "refund")
        fold(row, into: &result[period.label, default: [:]][key, default: UnitSide()])
    }

    static func fold(_ row: GoogleDatabaseRow, into unit: inout UnitSide) {
        unit.gross += row.amount
        unit.count += 1
        if unit.currency.isEmpty { unit.currency = row.currency }
        if unit.productId.isEmpty { unit.productId = row.product }
        if unit.country.isEmpty { unit.country = CountryCodes.alpha2(row.country) }
        unit.at = min(unit.at, row.at)
        unit.isTest = unit.isTest && row.isTest
        unit.keys.append(row.key)
    }
}

/// One billing_transaction row as the Google reconciliation reads it.
struct GoogleDatabaseRow: Sendable {
    var key: String
    var order: String
    var amount: Int64
    var currency: String
    var country: String
    var product: String
    var isTest: Bool
    /// `effective_at`, UTC epoch seconds.
    var at: Int64
}
