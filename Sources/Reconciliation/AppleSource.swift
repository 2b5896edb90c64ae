import Foundation
import Postgres

/// Gathers Apple cells per fiscal period: Financial Report rows (the consolidated ZZ file when the period has one,
/// else the regional files) and the database's APPLE rows with a non-zero amount, in the same cells.
struct AppleSource {
    let database: PostgresConnection
    /// Database rows recorded after this instant are left out.
    let knownAt: Date

    /// The cells of `periods` by period label (report and database sides), and the report files read.
    /// Offer-code redemptions are units of no money on both sides, in the cell of price 0: the report's promo-code
    /// rows (customer price 0 with a Promo Code, e.g. `CR`) and the database's charges of 0 whose transaction was an
    /// offer code (`AppleSource.promoSQL`). Free trials, which Apple's financial reports leave out, and test purchases
    /// of 0 are left out.
    func cells(_ periods: [ReconciliationPeriod], only: Set<Int64>?) throws -> ([String: [AppleCell: AppleCellSides]], [ReportFileRef]) {
        let files = try ReportFileRef.current(database, kinds: ["appleFinancial"], periods: periods.map(\.label), only: only)
        let regions = try Dictionary(uniqueKeysWithValues: database.query(
            "SELECT id, region FROM report_file WHERE id = ANY($1::int8[])", [PostgresTextArray(files.map { String($0.id) })]
        ).rows.map { (try $0.decode(Int64.self, "id"), try $0.decode(String.self, "region")) })
        let consolidated = Set(files.filter { regions[$0.id] == "ZZ" }.map(\.period))
        let used = files.filter { consolidated.contains($0.period) == (regions[$0.id] == "ZZ") }
        var result: [String: [AppleCell: AppleCellSides]] = [:]
        if !used.isEmpty {
            for row in try database.query("""
                SELECT f.period, r.vendor_identifier, r.country_of_sale, r.customer_currency, r.customer_price_micros,
                       r.sale_or_return, r.quantity, r.extended_partner_share_micros
                FROM apple_financial_row r JOIN report_file f ON f.id = r.report_file_id
                WHERE r.report_file_id = ANY($1::int8[]) AND (r.customer_price_micros <> 0 OR r.promo_code <> '')
                ORDER BY r.report_file_id, r.line
                """, [PostgresTextArray(used.map { String($0.id) })]).rows {
                let isReturn = try row.decode(String.self, "sale_or_return") == "R"
                let price = abs(try row.decode(Int64.self, "customer_price_micros")) * (isReturn ? -1 : 1)
                let cell = AppleCell(product: try row.decode(String.self, "vendor_identifier"),
                                     country: try row.decode(String.self, "country_of_sale"),
                                     currency: try row.decode(String.self, "customer_currency"), price: price)
                let period = try row.decode(String.self, "period")
                var sides = result[period, default: [:]][cell] ?? AppleCellSides()
                sides.reportUnits += abs(try row.decode(Int64.self, "quantity"))
                sides.reportNet += try row.decode(Int64.self, "extended_partner_share_micros")
                result[period, default: [:]][cell] = sides
            }
        }
        guard let first = periods.map(\.start).min(), let last = periods.map(\.end).max() else { return (result, used) }
        // A refund row names neither product nor storefront: they are those of the charge it refunds.
        for row in try database.query("""
            SELECT coalesce(b.product_id, c.product_id, '') AS product, coalesce(b.country_code, c.country_code, '') AS country,
                   b.currency_code, b.amount_micros, b.is_test, extract(epoch FROM b.effective_at)::int8 AS at
            FROM billing_transaction b LEFT JOIN billing_transaction c ON c.transaction_key = b.refunded_transaction_key
            WHERE b.provider = 'APPLE' AND b.amount_micros IS NOT NULL AND (b.amount_micros <> 0 OR \(Self.promoSQL))
              AND b.event_type = ANY(\(MoneyEvents.sqlArray))
              AND b.effective_at >= to_timestamp($1) AND b.effective_at < to_timestamp($2) AND b.recorded_at <= $3
            ORDER BY b.transaction_key
            """, [first, last, knownAt]).rows {
            let at = try row.decode(Int64.self, "at")
            guard let period = periods.first(where: { $0.contains(at) }) else { continue }
            let cell = AppleCell(product: try row.decode(String.self, "product"),
                                 country: CountryCodes.alpha2(try row.decode(String.self, "country")),
                                 currency: try row.decode(String.self, "currency_code"), price: try row.decode(Int64.self, "amount_micros"))
            result[period.label, default: [:]][cell, default: AppleCellSides()].database.append((at, try row.decode(Bool.self, "is_test")))
        }
        return (result, used)
    }

    /// The database's offer-code redemptions (with `b` a billing_transaction row): a charge of 0, not a test purchase,
    /// whose signed transaction named an offer code (`offer_type` 3, as the projection stored it). An introductory
    /// trial (`offer_type` 1) is left out whatever became of its subscription row, as Apple's report leaves it out.
    static let promoSQL = """
        (b.amount_micros = 0 AND NOT b.is_test AND b.event_type = ANY(\(MoneyEvents.chargesSQLArray)) \
        AND b.offer_type = 3)
        """
}
