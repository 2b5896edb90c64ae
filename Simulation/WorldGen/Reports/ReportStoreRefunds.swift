import Crypto
import StoreTruth

/// Refunds the store made that the database missed through an injected projection fault
/// (`refund_not_reflected` on Apple, `voided_purchase_not_applied` on Google): the reports carry them.
struct ReportStoreRefunds {
    private var appleRefunds: [String: (key: String, atMs: Int64, percentage: Int?)] = [:]
    private var googleVoided: [String: [(order: String, atMs: Int64)]] = [:]

    /// Looks up the refunds of `subscriptions`' faults in the notifications and voided purchases (of the same subscriptions
    /// or of the whole world; voided purchases ordered by voidedTimeMillis then orderId).
    init(_ subscriptions: [WorldSubscription], notifications: [AppleNotificationTruth], voided voidedPurchases: [JSONValue]) {
        let faulted = subscriptions.flatMap(\.faults)
        let uuids = Set(faulted.filter { $0.kind == .refundNotReflected && $0.provider == "APPLE" }.compactMap(\.eventId))
        if !uuids.isEmpty {
            for notification in notifications {
                guard let uuid = notification.payload["notificationUUID"]?.stringValue, uuids.contains(uuid),
                      let info = notification.transactionInfo, let original = info["originalTransactionId"]?.stringValue,
                      let transaction = info["transactionId"]?.stringValue else { continue }
                let atMs = info["revocationDate"]?.int64Value ?? notification.payload["signedDate"]?.int64Value ?? 0
                let percentage = info["revocationPercentage"]?.int64Value.map { Int($0) }
                appleRefunds[uuid] = ("APPLE:\(original):\(transaction)", atMs, percentage)
            }
        }
        let tokens = Set(faulted.filter { $0.kind == .voidedPurchaseNotApplied }.map(\.storeIdentifier))
        for voided in voidedPurchases {
            guard let token = voided["purchaseToken"]?.stringValue, tokens.contains(token), let order = voided["orderId"]?.stringValue,
                  let atMs = voided["voidedTimeMillis"]?.stringValue.flatMap({ Int64($0) }) else { continue }
            googleVoided[token, default: []].append((order, atMs))
        }
    }

    /// The store-only refunds of one subscription's faults, built from its charges (keyed by transaction key and order ID).
    func refunds(_ faults: [InjectedFault], charges: [ReportEntry], refunded: Set<String>) -> [ReportEntry] {
        var result: [ReportEntry] = []
        func add(_ charge: ReportEntry?, atMs: Int64, percentage: Int? = nil) {
            guard var refund = charge, !refund.isFree, !refunded.contains(refund.transactionKey + ":REFUNDED") else { return }
            refund.kind = .refund
            refund.amountMicros = ProratedRefund.amount(refund.amountMicros, percentage: percentage)
            refund.transactionKey += ":REFUNDED"
            refund.atMs = atMs
            refund.storeOnly = true
            result.append(refund)
        }
        for fault in faults {
            if fault.kind == .refundNotReflected, let uuid = fault.eventId, let refund = appleRefunds[uuid] {
                add(charges.first { $0.transactionKey == refund.key }, atMs: refund.atMs, percentage: refund.percentage)
            } else if fault.kind == .voidedPurchaseNotApplied {
                for voided in googleVoided[fault.storeIdentifier] ?? [] {
                    add(charges.first { $0.orderId == voided.order }, atMs: voided.atMs)
                }
            }
        }
        return result
    }
}
