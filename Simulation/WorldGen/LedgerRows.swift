import BillingCore
import Foundation

/// The database rows of one subscription as the transactional writer would have left them.
struct LedgerRows {
    struct Transaction { var record: BillingTransactionRecord; var id: String; var createdMs: Int64 }
    struct Token { var token: String; var linked: String?; var isCurrent: Bool; var createdMs: Int64; var updatedMs: Int64 }
    struct PriceChange {
        var change: SubscriptionPriceChange; var id: String; var createdMs: Int64; var updatedMs: Int64
        /// Every state the change reached (`subscription_price_change_transition`): state, store instant, recorded.
        var transitions: [(state: PriceChangeState, atMs: Int64, recordedMs: Int64)] = []
    }
    struct Entitlement { var value: EntitlementProjection; var createdMs: Int64; var updatedMs: Int64 }

    var subscriptionId: String
    var snapshot: SubscriptionSnapshot?
    var createdMs: Int64 = 0
    var updatedMs: Int64 = 0
    var appleLatest: String?
    var appleCreatedMs: Int64 = 0
    var appleUpdatedMs: Int64 = 0
    var transactions: [Transaction] = []
    var keys: Set<String> = []
    var tokens: [Token] = []
    var priceChanges: [PriceChange] = []
    var entitlements: [String: Entitlement] = [:]
    var entitlementOrder: [String] = []
    var inbound: [InboundRow] = []
}
