import BillingCore
import Foundation
import Postgres

/// Rows of a closed period recorded after its close: each lands in the first period after its own that was not
/// closed when the row was recorded, as a prior-period adjustment. Its category compares it with the closed
/// period's report: `matched` when that report carries the unit, else `missing_in_store_report` (a test purchase:
/// `test_purchase_excluded`).
struct PriorPeriodAdjustments {
    let database: PostgresConnection

    struct Lock {
        let period: String
        let starts: Int64
        let ends: Int64
        let closedAt: Date
    }

    func items(for period: ReconciliationPeriod, knownAt: Date) throws -> [ReconciliationItem] {
        let locks = try database.query("""
            SELECT l.report_period, extract(epoch FROM l.starts_at)::int8 AS s, extract(epoch FROM l.ends_at)::int8 AS e, c.closed_at
            FROM period_lock l JOIN period_close c ON c.id = l.close_id
            WHERE c.reopened_at IS NULL AND l.provider = $1::billing_provider ORDER BY l.starts_at
            """, [period.provider.databaseLabel]).rows.map {
            Lock(period: try $0.decode(String.self, "report_period"), starts: try $0.decode(Int64.self, "s"),
                 ends: try $0.decode(Int64.self, "e"), closedAt: try $0.decode(Date.self, "closed_at"))
        }
        guard locks.contains(where: { $0.ends <= period.start }) else { return [] }
        let rows = try database.query("""
            SELECT b.transaction_key, coalesce(b.order_id, '') AS order_id, b.amount_micros, b.currency_code,
                   coalesce(b.country_code, c.country_code, '') AS country, coalesce(b.product_id, c.product_id, '') AS product, b.is_test,
                   extract(epoch FROM b.effective_at)::int8 AS at, b.recorded_at
            FROM billing_transaction b LEFT JOIN billing_transaction c ON c.transaction_key = b.refunded_transaction_key
            WHERE b.provider = $1::billing_provider AND b.amount_micros IS NOT NULL AND b.amount_micros <> 0
              AND b.event_type = ANY(\(MoneyEvents.sqlArray))
              AND b.effective_at < to_timestamp($2) AND b.recorded_at <= $3
              AND EXISTS (SELECT 1 FROM period_lock l JOIN period_close c ON c.id = l.close_id
                          WHERE c.reopened_at IS NULL AND l.provider = b.provider AND b.effective_at >= l.starts_at
                            AND b.effective_at < l.ends_at AND b.recorded_at > c.closed_at)
            ORDER BY b.effective_at, b.transaction_key
            """, [period.provider.databaseLabel, period.start, knownAt]).rows
        // Each row landing in `period`, with its own (closed) period; then what those periods' reports carry.
        var landing: [(row: PostgresRow, own: ReconciliationPeriod)] = []
        for row in rows {
            let at = try row.decode(Int64.self, "at")
            let recorded = try row.decode(Date.self, "recorded_at")
            guard let own = locks.first(where: { at >= $0.starts && at < $0.ends && recorded > $0.closedAt }) else { continue }
            var landsIn = own.ends
            while let closed = locks.first(where: { $0.starts == landsIn && $0.closedAt < recorded }) { landsIn = closed.ends }
            guard landsIn == period.start, let ownPeriod = ReconciliationPeriod(period.provider, own.period) else { continue }
            landing.append((row, ownPeriod))
        }
        var reports: [String: ReportSide] = [:]
        for own in Set(landing.map(\.own.label)) {
            guard let ownPeriod = ReconciliationPeriod(period.provider, own) else { continue }
            let orders = try landing.filter { $0.own.label == own }.map { try $0.row.decode(String.self, "order_id") }
            reports[own] = try ReportSide.load(ownPeriod, orders: orders, database: database)
        }
        var result: [ReconciliationItem] = []
        for (row, ownPeriod) in landing {
            let own = ownPeriod.label
            let amount = try row.decode(Int64.self, "amount_micros")
            let currency = try row.decode(String.self, "currency_code")
            let country = CountryCodes.alpha2(try row.decode(String.self, "country"))
            let product = try row.decode(String.self, "product")
            let order = try row.decode(String.self, "order_id")
            let isTest = try row.decode(Bool.self, "is_test")
            let carried: Bool
            let grain: String
            let side: String
            switch period.provider {
            case .google:
                side = amount > 0 ? "charge" : "refund"
                grain = order
                carried = reports[own]?.google.contains(GoogleUnitKey(order: order, side: side == "charge" ? 0 : 1)) ?? false
            case .apple:
                let cell = AppleCell(product: product, country: country, currency: currency, price: amount)
                side = cell.side
                grain = cell.key
                carried = (reports[own]?.apple[cell]?.reportUnits ?? 0) > 0
            }
            var item = ReconciliationItem(
                category: isTest ? .testPurchaseExcluded : (carried ? .matched : .missingInStoreReport),
                grainKey: grain, side: side, productId: product, country: country, currency: currency,
                databaseCurrency: currency, reportUnits: 0, databaseUnits: 1, reportGross: 0, databaseGross: amount,
                detail: Redaction.transactionKey(try row.decode(String.self, "transaction_key")))
            item.priorPeriodAdjustment = true
            item.adjustmentPeriod = own
            result.append(item)
        }
        return result
    }

    /// The report side of a closed period, as it is staged now: for Google, which of `orders`' units its report has.
    struct ReportSide {
        var google: Set<GoogleUnitKey> = []
        var apple: [AppleCell: AppleCellSides] = [:]

        static func load(_ period: ReconciliationPeriod, orders: [String], database: PostgresConnection) throws -> ReportSide {
            var side = ReportSide()
            switch period.provider {
            case .google:
                side.google = try googleUnits(period, orders: orders, database: database)
            case .apple:
                side.apple = try AppleSource(database: database, knownAt: Date()).report([period], only: nil).0[period.label] ?? [:]
            }
            return side
        }

        /// The units of `orders` the period's current staged files hold (its earnings facts, or its estimated-sales
        /// rows when it has no earnings file): an order's side is there when one of its facts or rows is.
        static func googleUnits(_ period: ReconciliationPeriod, orders: [String], database: PostgresConnection) throws -> Set<GoogleUnitKey> {
            let files = try GoogleMonthStream.files(database, [period], only: nil)
            let earnings = files.filter { $0.kind == "googleEarnings" }.map(\.id)
            let sql = earnings.isEmpty
                ? """
                  SELECT DISTINCT r.order_number AS o, (r.financial_status = 'Refund')::int::int8 AS side FROM google_estimated_sales_row r
                  WHERE r.report_file_id IN (\(GoogleMonthStream.list(files.map(\.id)))) AND r.order_number = ANY($1::text[])
                  """
                : """
                  SELECT DISTINCT f.order_id AS o, f.side::int8 AS side FROM google_earnings_fact f
                  WHERE f.report_file_id IN (\(GoogleMonthStream.list(earnings))) AND f.order_id = ANY($1::text[])
                  """
            return Set(try database.query(sql, [PostgresTextArray(orders)]).rows.map {
                GoogleUnitKey(order: try $0.decode(String.self, "o"), side: Int(try $0.decode(Int64.self, "side")))
            })
        }
    }
}

/// A Google unit: an order's charge (side 0) or refund (side 1).
struct GoogleUnitKey: Hashable {
    var order: String
    var side: Int
}
