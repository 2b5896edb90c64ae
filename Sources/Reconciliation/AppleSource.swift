import Foundation
import Postgres

/// Gathers Apple cells per fiscal period: Financial Report rows (the consolidated ZZ file when the period has one,
/// else the regional files) and the database's APPLE rows with a non-zero amount, in the same cells. Both sides are
/// summed per cell by PostgreSQL (`GROUP BY`): a period of a million charges arrives as a few thousand cells.
struct AppleSource {
    let database: PostgresConnection
    /// Database rows recorded after this instant are left out.
    let knownAt: Date
    /// The timing window: paid rows within it of their period's start or end are counted apart (`AppleCellSides`).
    var windowSeconds: Int64 = ReconciliationWindow.timingSeconds

    /// The cells of `periods` by period label (report and database sides), and the report files read.
    /// Offer-code redemptions are units of no money on both sides, in the cell of price 0: the report's promo-code
    /// rows (customer price 0 with a Promo Code, e.g. `CR`) and the database's charges of 0 whose transaction was an
    /// offer code (`AppleSource.promoSQL`). Free trials, which Apple's financial reports leave out, and test purchases
    /// of 0 are left out.
    func cells(_ periods: [ReconciliationPeriod], only: Set<Int64>?) throws -> ([String: [AppleCell: AppleCellSides]], [ReportFileRef]) {
        var (result, used) = try report(periods, only: only)
        try addDatabase(periods, to: &result)
        return (result, used)
    }

    /// The report sides of `periods` by period label, and the report files read.
    func report(_ periods: [ReconciliationPeriod], only: Set<Int64>?) throws -> ([String: [AppleCell: AppleCellSides]], [ReportFileRef]) {
        let files = try ReportFileRef.current(database, kinds: ["appleFinancial"], periods: periods.map(\.label), only: only)
        let regions = try Dictionary(uniqueKeysWithValues: database.query(
            "SELECT id, region FROM report_file WHERE id = ANY($1::int8[])", [PostgresTextArray(files.map { String($0.id) })]
        ).rows.map { (try $0.decode(Int64.self, "id"), try $0.decode(String.self, "region")) })
        let consolidated = Set(files.filter { regions[$0.id] == "ZZ" }.map(\.period))
        let used = files.filter { consolidated.contains($0.period) == (regions[$0.id] == "ZZ") }
        var result: [String: [AppleCell: AppleCellSides]] = [:]
        guard !used.isEmpty else { return (result, used) }
        for row in try database.query("""
            SELECT f.period, r.vendor_identifier, r.country_of_sale, r.customer_currency,
                   CASE WHEN r.sale_or_return = 'R' THEN -abs(r.customer_price_micros) ELSE abs(r.customer_price_micros) END AS price,
                   sum(abs(r.quantity))::int8 AS units, sum(r.extended_partner_share_micros)::int8 AS net
            FROM apple_financial_row r JOIN report_file f ON f.id = r.report_file_id
            WHERE r.report_file_id = ANY($1::int8[]) AND (r.customer_price_micros <> 0 OR r.promo_code <> '')
            GROUP BY 1, 2, 3, 4, 5
            """, [PostgresTextArray(used.map { String($0.id) })]).rows {
            let cell = AppleCell(product: try row.decode(String.self, "vendor_identifier"),
                                 country: try row.decode(String.self, "country_of_sale"),
                                 currency: try row.decode(String.self, "customer_currency"), price: try row.decode(Int64.self, "price"))
            var sides = result[try row.decode(String.self, "period"), default: [:]][cell, default: AppleCellSides()]
            sides.reportUnits += try row.decode(Int64.self, "units")
            sides.reportNet += try row.decode(Int64.self, "net")
            result[try row.decode(String.self, "period"), default: [:]][cell] = sides
        }
        return (result, used)
    }

    /// Adds the database side of `periods` to `result`: per period and cell, the paid and test rows and the paid rows
    /// near the period's edges. A row belongs to the first of `periods` holding its instant in whole epoch seconds.
    func addDatabase(_ periods: [ReconciliationPeriod], to result: inout [String: [AppleCell: AppleCellSides]]) throws {
        guard let first = periods.map(\.start).min(), let last = periods.map(\.end).max() else { return }
        // A row's instant counts in whole epoch seconds, rounded half away from zero (`extract(epoch)::int8`): whole
        // seconds compare with it as the half second before them compares with the instant itself, so the statement
        // compares timestamps (no numeric per row). The bounds are whole numbers written into the statement: the
        // period of a row (its number among `periods`) is a CASE of them, the window's edges arrays of them.
        func instant(_ seconds: Int64) -> String { "to_timestamp(\(seconds) - 0.5)" }
        let periodOf = "CASE " + periods.indices.map {
            "WHEN at >= \(instant(periods[$0].start)) AND at < \(instant(periods[$0].end)) THEN \($0 + 1)"
        }.joined(separator: " ") + " END"
        // Within the window: `at - start <= window`, i.e. before the whole second after `start + window`;
        // `end - at <= window`, i.e. from `end - window` on.
        let nearStart = "ARRAY[" + periods.map { instant($0.start + windowSeconds + 1) }.joined(separator: ",") + "]"
        let nearEnd = "ARRAY[" + periods.map { instant($0.end - windowSeconds) }.joined(separator: ",") + "]"
        // A refund row names neither product nor storefront: they are those of the charge it refunds.
        for row in try database.query("""
            WITH money AS (
                SELECT coalesce(b.product_id, c.product_id, '') AS product, coalesce(b.country_code, c.country_code, '') AS country,
                       b.currency_code, b.amount_micros, b.is_test, b.effective_at AS at
                FROM billing_transaction b LEFT JOIN billing_transaction c ON c.transaction_key = b.refunded_transaction_key
                WHERE b.provider = 'APPLE' AND b.amount_micros IS NOT NULL AND (b.amount_micros <> 0 OR \(Self.promoSQL))
                  AND b.event_type = ANY(\(MoneyEvents.sqlArray))
                  AND b.effective_at >= to_timestamp($1) AND b.effective_at < to_timestamp($2) AND b.recorded_at <= $3),
            placed AS (SELECT *, \(periodOf) AS period FROM money)
            SELECT period, product, country, currency_code, amount_micros,
                   count(*) FILTER (WHERE NOT is_test)::int8 AS paid, count(*) FILTER (WHERE is_test)::int8 AS test,
                   count(*) FILTER (WHERE NOT is_test AND at < (\(nearStart))[period])::int8 AS near_start,
                   count(*) FILTER (WHERE NOT is_test AND at >= (\(nearEnd))[period])::int8 AS near_end
            FROM placed WHERE period IS NOT NULL
            GROUP BY 1, 2, 3, 4, 5
            """, [first, last, knownAt]).rows {
            let period = periods[Int(try row.decode(Int32.self, "period")) - 1]
            let cell = AppleCell(product: try row.decode(String.self, "product"),
                                 country: CountryCodes.alpha2(try row.decode(String.self, "country")),
                                 currency: try row.decode(String.self, "currency_code"), price: try row.decode(Int64.self, "amount_micros"))
            var sides = result[period.label, default: [:]][cell, default: AppleCellSides()]
            sides.paidUnits += try row.decode(Int64.self, "paid")
            sides.testUnits += try row.decode(Int64.self, "test")
            sides.paidNearStart += try row.decode(Int64.self, "near_start")
            sides.paidNearEnd += try row.decode(Int64.self, "near_end")
            result[period.label, default: [:]][cell] = sides
        }
    }

    /// The database's offer-code redemptions (with `b` a billing_transaction row): a charge of 0, not a test purchase,
    /// whose signed transaction named an offer code (`offer_type` 3, as the projection stored it). An introductory
    /// trial (`offer_type` 1) is left out whatever became of its subscription row, as Apple's report leaves it out.
    static let promoSQL = """
        (b.amount_micros = 0 AND NOT b.is_test AND b.event_type = ANY(\(MoneyEvents.chargesSQLArray)) \
        AND b.offer_type = 3)
        """
}
