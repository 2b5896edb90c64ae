import BillingCore

/// Extracts the report entries of a world from its billing_transaction rows (in subscription order).
///
/// Products come from the catalogue price the amount matches (list prices are unique per currency);
/// Google refunds, which carry no amount in the database, take the amount of the order they refund.
enum ReportLedger {
    static let chargeTypes: Set<BillingEventType> = [.purchased, .renewed, .recovered, .productChanged, .restarted]

    /// Every charge (with an amount) and refund of the world, in subscription then row order.
    static func entries(_ world: GeneratedWorld) -> [ReportEntry] {
        entries(world.subscriptions, products: ProductLookup(world.catalogue),
                storeRefunds: ReportStoreRefunds(world.subscriptions, notifications: world.truth.apple.notifications,
                                                 voided: world.truth.google.voidedPurchases))
    }

    /// The entries of `subscriptions` (a whole world or one batch of it), in subscription then row order.
    static func entries(_ subscriptions: [WorldSubscription], products: ProductLookup, storeRefunds: ReportStoreRefunds) -> [ReportEntry] {
        var result: [ReportEntry] = []
        for subscription in subscriptions {
            let first = result.count
            defer { assignTrialPlans(&result, from: first) }
            var byKey: [String: ReportEntry] = [:]
            var byOrder: [String: ReportEntry] = [:]
            for row in subscription.rows.transactions {
                let record = row.record
                let atMs = WorldClock.ms(record.effectiveAt)
                if chargeTypes.contains(record.eventType), let amount = record.amount {
                    var entry = ReportEntry(
                        kind: .charge, provider: record.provider.rawValue, subscriptionId: subscription.rows.subscriptionId,
                        transactionKey: record.transactionKey, orderId: record.orderId,
                        plan: products.plan(currency: amount.currencyCode, micros: amount.micros) ?? 0,
                        country: products.alpha2(record.storefront ?? ""), currency: amount.currencyCode,
                        amountMicros: amount.micros, atMs: atMs, purchaseAtMs: atMs, isTest: record.isTest,
                        isOfferCode: isOfferCode(record, subscription.rows.snapshot))
                    // An offer code's free period is of the product redeemed (the Financial Report row names it).
                    if entry.isOfferCode, let plan = record.charge?.productId.flatMap(products.plan(appleProductId:)) { entry.plan = plan }
                    byKey[record.transactionKey] = entry
                    if let order = record.orderId { byOrder[order] = entry }
                    result.append(entry)
                } else if record.eventType == .refunded {
                    let original = record.provider == .google ? record.orderId.flatMap { byOrder[$0] }
                        : byKey[String(record.transactionKey.dropLast(":REFUNDED".count))]
                    guard var entry = original else { continue }
                    entry.kind = .refund
                    entry.transactionKey = record.transactionKey
                    entry.atMs = atMs
                    entry.isTest = record.isTest
                    // History rows store refunds negative (sign rule); an entry carries the refunded magnitude.
                    if let amount = record.amount { entry.amountMicros = abs(amount.micros); entry.currency = amount.currencyCode }
                    guard entry.amountMicros > 0 else { continue }
                    result.append(entry)
                }
            }
            if !subscription.faults.isEmpty {
                let own = Array(result[first...])
                result += storeRefunds.refunds(subscription.faults, charges: own.filter { $0.kind == .charge },
                                               refunded: Set(own.filter { $0.kind == .refund }.map(\.transactionKey)))
            }
        }
        return result
    }

    /// An Apple charge of 0 that is not the subscription's introductory trial (whose period ends at `trial_ends_at`):
    /// an offer-code redemption, as reconcile tells them apart in the database.
    static func isOfferCode(_ record: BillingTransactionRecord, _ snapshot: SubscriptionSnapshot?) -> Bool {
        record.provider == .apple && record.amount?.micros == 0 && record.expiresAt != snapshot?.trialEndsAt
    }

    /// A free-trial start takes the plan of the subscription's next paid charge (monthly when none).
    static func assignTrialPlans(_ entries: inout [ReportEntry], from first: Int) {
        for position in first..<entries.count where entries[position].isFree && !entries[position].isOfferCode {
            entries[position].plan = entries[position...].first { !$0.isFree }?.plan ?? 1
        }
    }
}

/// Product and country lookups over the catalogue.
struct ProductLookup {
    private var plans: [String: Int] = [:]
    private var countries: [String: String] = [:]
    private var appleProducts: [String: Int] = [:]

    init(_ catalogue: WorldCatalogue) {
        for (index, plan) in catalogue.plans.enumerated() {
            appleProducts[plan.appleProductId] = index
            for market in catalogue.markets {
                if let price = market.prices[plan.code] { plans["\(market.currency)|\(price)"] = index }
            }
            for change in catalogue.priceChanges where change.planCode == plan.code {
                plans["\(change.currency)|\(change.newMicros)"] = index
            }
        }
        for market in catalogue.markets {
            countries[market.appleStorefront] = market.googleRegion
            countries[market.googleRegion] = market.googleRegion
        }
    }

    /// The plan whose list price in `currency` is `micros`.
    func plan(currency: String, micros: Int64) -> Int? { plans["\(currency)|\(micros)"] }

    /// The plan of an Apple product ID.
    func plan(appleProductId: String) -> Int? { appleProducts[appleProductId] }

    /// ISO alpha-2 for an Apple storefront (alpha-3) or Google region (alpha-2).
    func alpha2(_ code: String) -> String { countries[code] ?? String(code.prefix(2)) }
}
