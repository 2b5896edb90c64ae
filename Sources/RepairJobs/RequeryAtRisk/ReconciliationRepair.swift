import AppStore
import BillingCore
import Foundation
import GooglePlay
import Postgres
import ProjectionStore
import StoreCalls

/// Repairs the history of one subscription that open reconciliation items point at, from what the store states one
/// transaction or order at a time, and records each item's outcome in `reconciliation_repair` (docs/RECONCILIATION.md,
/// "Closing the loop"): Apple through Get Transaction History of its original transaction (every page), Google through
/// the Orders API for each item's order (`orders.batchGet`, then `orders.get` one by one when the store does not know
/// one of them). Rows are written by `ProjectionWriter.repairHistory` under the subscription's lock.
struct ReconciliationRepair {
    let database: PostgresConnection
    let writer: ProjectionWriter
    let stores: StoreClientSet
    let asOf: Date
    let jobRunID: Int64?

    /// Repairs `target` for `items` (read before the subscription's own re-query, which may already restore a row);
    /// `tokenGone` says Google answered 410 for its token (its orders are then past the store's window). An item is
    /// repaired when a row of its own was written in this job run, by the re-query or here. Returns each item's
    /// outcome, recorded.
    func repair(_ target: RequeryTarget, items: [ReconciliationItemRef], tokenGone: Bool) throws -> [ReconciliationRepairOutcome] {
        guard !items.isEmpty else { return [] }
        var outcomes: [(ReconciliationItemRef, ReconciliationRepairOutcome)]
        var amended: [String] = []
        if target.provider == "APPLE" {
            let (outcome, written) = apple(target)
            amended = written
            outcomes = items.map { ($0, outcome) }
        } else {
            (outcomes, amended) = google(target, items: items, tokenGone: tokenGone)
        }
        let written = try writtenThisRun(target.subscriptionId) + amended
        outcomes = try outcomes.map { item, outcome in
            if case .failed = outcome { return (item, outcome) }
            let own = target.provider == "APPLE" ? try Self.cellHasRow(item, keys: written, database: database)
                                                 : try Self.orderHasRow(item, keys: written, database: database)
            guard own else {
                if case .repaired = outcome { return (item, .notFound("the store's answer holds nothing for this item")) }
                return (item, outcome)
            }
            if case .repaired = outcome { return (item, outcome) }
            return (item, .repaired("restored by the subscription's re-query"))
        }
        for (item, outcome) in outcomes {
            let statement = ReconciliationTargets.record(item, outcome, subscriptionId: target.subscriptionId, jobRunID: jobRunID)
            try database.execute(statement.sql, statement.parameters)
        }
        return outcomes.map(\.1)
    }

    /// The history rows written for the subscription in this job run (its `missing_transaction` drift).
    private func writtenThisRun(_ subscriptionId: String) throws -> [String] {
        guard let jobRunID else { return [] }
        return try database.query("""
            SELECT store_value FROM drift_event
            WHERE job_run_id = $1 AND subscription_id = $2::uuid AND kind = 'missing_transaction' AND store_value IS NOT NULL
            """, [jobRunID, subscriptionId]).rows.map { try $0.decode(String.self, "store_value") }
    }

    private var trigger: ProjectionTrigger { ProjectionTrigger(source: .requery, now: asOf) }

    private func apple(_ target: RequeryTarget) -> (ReconciliationRepairOutcome, [String]) {
        guard let original = target.originalTransactionId,
              let client = (target.isSandbox ? stores.appleSandbox : nil) ?? stores.apple else {
            return (.failed("Apple is not configured"), [])
        }
        let history: [JWSTransactionDecodedPayload]
        do {
            history = try AttemptContext.$subscriptionId.withValue(target.subscriptionId) {
                try client.transactionHistory(transactionId: original)
            }.filter { $0.originalTransactionId == original }
        } catch {
            return (.failed("Get Transaction History failed: \(error)"), [])
        }
        do {
            let plans = try ChargePlans.read(database, provider: "APPLE", products: history.compactMap(\.productId))
            let trigger = self.trigger
            let written = try writer.repairHistory(subscriptionId: target.subscriptionId, trigger: trigger) { snapshot in
                try history.flatMap { transaction in
                    try AppleHistoryRows.records(transaction, snapshot: snapshot, plan: plans.plan(transaction.productId, basePlan: nil),
                                                 trigger: trigger, rawPayload: try Self.payload(["source": "getTransactionHistory",
                                                                                              "transactionId": transaction.transactionId ?? ""]))
                }
            }
            return (Self.outcome(written, answered: "\(history.count) transactions"), written.amended)
        } catch {
            return (.failed("\(error)"), [])
        }
    }

    /// Each item's outcome, and the refund rows whose amount was corrected.
    private func google(_ target: RequeryTarget, items: [ReconciliationItemRef],
                        tokenGone: Bool) -> ([(ReconciliationItemRef, ReconciliationRepairOutcome)], [String]) {
        guard let client = stores.google else { return (items.map { ($0, .failed("Google Play is not configured")) }, []) }
        var amended: [String] = []
        var answers: [String: Result<GoogleOrderAnswer, any Error>] = [:]
        // Several orders are asked in one orders.batchGet; when the batch fails, each order is asked on its own below,
        // and those answers (errors included) are what the items record.
        if items.count > 1, case .success(let batch) = Result(catching: {
            try AttemptContext.$subscriptionId.withValue(target.subscriptionId) { try client.orders(ids: items.map(\.grainKey)) }
        }) {
            for answer in batch { answers[answer.order.orderId ?? ""] = .success(answer) }
        }
        let outcomes = items.map { item -> (ReconciliationItemRef, ReconciliationRepairOutcome) in
            let orderId = item.grainKey
            let answer = answers[orderId] ?? Result { try AttemptContext.$subscriptionId.withValue(target.subscriptionId) {
                try client.order(id: orderId)
            } }
            switch answer {
            case .failure(let error):
                if case .store(let inner)? = error as? StoreCallError, let api = inner as? GooglePlayAPIError,
                   api.classification == .notFound || api.classification == .gone {
                    return (item, tokenGone ? .storeWindow("orders.get: order \(orderId) of a token past Google's 60 days")
                                            : .notFound("orders.get: the store does not know order \(orderId)"))
                }
                return (item, .failed("orders.get \(orderId) failed: \(error)"))
            case .success(let found):
                do {
                    let line = found.order.lineItems?.first
                    let plans = try ChargePlans.read(database, provider: "GOOGLE", products: [line?.productId].compactMap { $0 })
                    let plan = plans.plan(line?.productId, basePlan: line?.subscriptionDetails?.basePlanId)
                    let written = try writer.repairHistory(subscriptionId: target.subscriptionId, trigger: trigger) { snapshot in
                        try GoogleOrderRows.records(found.order, plan: plan, isTest: snapshot.isTestPurchase, rawPayload: found.raw)
                    }
                    amended += written.amended
                    return (item, Self.outcome(written, answered: "order \(orderId)"))
                } catch {
                    return (item, .failed("order \(orderId): \(error)"))
                }
            }
        }
        return (outcomes, amended)
    }

    /// An Apple cell is repaired only by a written row of its own: its product, its price (a sale's charge or a return's
    /// refund) and an instant in its period (the country is left out: the storefront is alpha-3, the cell alpha-2).
    static func cellHasRow(_ item: ReconciliationItemRef, keys: [String], database: PostgresConnection) throws -> Bool {
        guard !keys.isEmpty else { return false }
        return try database.query("""
            SELECT 1 FROM reconciliation_run r JOIN reconciliation_item i ON i.run_id = r.id AND i.line = $2
            JOIN billing_transaction b ON b.transaction_key = ANY($3::text[])
            WHERE r.id = $1 AND b.product_id = i.product_id AND b.effective_at >= r.starts_at AND b.effective_at < r.ends_at
              AND abs(b.amount_micros) = abs(split_part(i.grain_key, '|', 4)::int8)
              AND (b.amount_micros < 0) = (i.side = 'return')
            LIMIT 1
            """, [item.runId, item.line, PostgresTextArray(keys)]).count > 0
    }

    /// A Google order item is repaired only by a written row of its order.
    static func orderHasRow(_ item: ReconciliationItemRef, keys: [String], database: PostgresConnection) throws -> Bool {
        guard !keys.isEmpty else { return false }
        return try database.query("""
            SELECT 1 FROM billing_transaction WHERE transaction_key = ANY($1::text[]) AND order_id = $2 LIMIT 1
            """, [PostgresTextArray(keys), item.grainKey]).count > 0
    }

    /// Repaired when anything was written, else not found (the store's answer matches the database).
    static func outcome(_ written: HistoryRepair, answered: String) -> ReconciliationRepairOutcome {
        guard written.inserted.isEmpty && written.amended.isEmpty else {
            return .repaired("\(answered): \(written.inserted.count) rows added, \(written.amended.count) refund amounts corrected")
        }
        return .notFound("\(answered): the store states nothing the database lacks")
    }

    static func payload(_ fields: [String: String]) throws -> Data {
        try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    }
}

/// The plans store products map to (`store_product_mapping`), for the paid period of a repaired charge.
struct ChargePlans {
    let byProduct: [String: [(basePlan: String, plan: ChargePlan)]]

    /// The mappings of `products` of `provider`.
    static func read(_ database: PostgresConnection, provider: String, products: [String]) throws -> ChargePlans {
        guard !products.isEmpty else { return ChargePlans(byProduct: [:]) }
        var found: [String: [(String, ChargePlan)]] = [:]
        for row in try database.query("""
            SELECT m.product_id, m.base_plan_id, m.plan_id::text AS plan_id, p.billing_period
            FROM store_product_mapping m JOIN plan p ON p.id = m.plan_id
            WHERE m.provider = $1::billing_provider AND m.product_id = ANY($2::text[])
            ORDER BY m.product_id, m.offer_id, m.base_plan_id
            """, [provider, PostgresTextArray(products)]).rows {
            found[try row.decode(String.self, "product_id"), default: []].append(
                (try row.decode(String.self, "base_plan_id"),
                 ChargePlan(planId: try row.decode(String.self, "plan_id"), billingPeriod: try row.decode(String.self, "billing_period"))))
        }
        return ChargePlans(byProduct: found)
    }

    /// The plan of `product` (and `basePlan`, when the store names one); nil when unmapped.
    func plan(_ product: String?, basePlan: String?) -> ChargePlan? {
        guard let product, let candidates = byProduct[product] else { return nil }
        return (candidates.first { $0.basePlan == basePlan } ?? candidates.first)?.plan
    }
}
