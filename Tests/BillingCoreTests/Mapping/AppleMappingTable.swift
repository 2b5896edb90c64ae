@testable import BillingCore

/// One row of the Apple App Store Server Notifications V2 mapping table (docs/DATA_MODEL.md).
struct AppleMappingRow: Sendable, CustomStringConvertible {
    var notificationType: String
    var subtype: String?
    /// The status before the notification (nil: the database does not know the subscription).
    var prior: SubscriptionStatus?
    var priorAutoRenew = true
    var status: SubscriptionStatus
    /// nil: "(event record only)".
    var eventType: BillingEventType?
    var entitled: Bool

    var fixture: String { "apple/" + notificationType + (subtype.map { "_" + $0 } ?? "") + (trialVariant ? "_TRIAL" : "") + ".json" }
    var trialVariant: Bool { status == .trialing }
    var description: String { notificationType + "/" + (subtype ?? "-") + (trialVariant ? " (trial)" : "") }
}

/// The Apple table, as docs/DATA_MODEL.md gives it (Apple V2).
enum AppleMappingTable {
    /// Every (notificationType, subtype) the table lists; each must have a row with a fixture.
    static let designDocRows: [(String, String?)] = [
        ("SUBSCRIBED", "INITIAL_BUY"), ("SUBSCRIBED", "RESUBSCRIBE"), ("DID_RENEW", nil), ("DID_RENEW", "BILLING_RECOVERY"),
        ("DID_FAIL_TO_RENEW", "GRACE_PERIOD"), ("DID_FAIL_TO_RENEW", nil), ("GRACE_PERIOD_EXPIRED", nil),
        ("EXPIRED", "VOLUNTARY"), ("EXPIRED", "BILLING_RETRY"), ("EXPIRED", "PRICE_INCREASE"), ("EXPIRED", "PRODUCT_NOT_FOR_SALE"),
        ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"), ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED"),
        ("DID_CHANGE_RENEWAL_PREF", "UPGRADE"), ("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE"),
        ("PRICE_INCREASE", "PENDING"), ("PRICE_INCREASE", "ACCEPTED"), ("REFUND", nil), ("REVOKE", nil),
    ]

    static let rows: [AppleMappingRow] = [
        .init(notificationType: "SUBSCRIBED", subtype: "INITIAL_BUY", prior: nil, status: .active, eventType: .purchased, entitled: true),
        .init(notificationType: "SUBSCRIBED", subtype: "INITIAL_BUY", prior: nil, status: .trialing, eventType: .purchased, entitled: true),
        .init(notificationType: "SUBSCRIBED", subtype: "RESUBSCRIBE", prior: .expired, status: .active, eventType: .restarted, entitled: true),
        .init(notificationType: "DID_RENEW", subtype: nil, prior: .active, status: .active, eventType: .renewed, entitled: true),
        .init(notificationType: "DID_RENEW", subtype: "BILLING_RECOVERY", prior: .inGracePeriod, status: .active,
              eventType: .recovered, entitled: true),
        .init(notificationType: "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", prior: .active, status: .inGracePeriod,
              eventType: .enteredGracePeriod, entitled: true),
        .init(notificationType: "DID_FAIL_TO_RENEW", subtype: nil, prior: .active, status: .active, eventType: nil, entitled: true),
        .init(notificationType: "GRACE_PERIOD_EXPIRED", subtype: nil, prior: .inGracePeriod, status: .onHold,
              eventType: .enteredOnHold, entitled: false),
        .init(notificationType: "EXPIRED", subtype: "VOLUNTARY", prior: .active, priorAutoRenew: false, status: .expired,
              eventType: .expired, entitled: false),
        .init(notificationType: "EXPIRED", subtype: "BILLING_RETRY", prior: .active, status: .expired, eventType: .expired, entitled: false),
        .init(notificationType: "EXPIRED", subtype: "PRICE_INCREASE", prior: .active, status: .expired, eventType: .expired, entitled: false),
        .init(notificationType: "EXPIRED", subtype: "PRODUCT_NOT_FOR_SALE", prior: .active, status: .expired, eventType: .expired,
              entitled: false),
        .init(notificationType: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", prior: .active, status: .active,
              eventType: .canceled, entitled: true),
        .init(notificationType: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_ENABLED", prior: .active, priorAutoRenew: false,
              status: .active, eventType: .restarted, entitled: true),
        .init(notificationType: "DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE", prior: .active, status: .active,
              eventType: .productChanged, entitled: true),
        .init(notificationType: "DID_CHANGE_RENEWAL_PREF", subtype: "DOWNGRADE", prior: .active, status: .active,
              eventType: .productChanged, entitled: true),
        .init(notificationType: "PRICE_INCREASE", subtype: "PENDING", prior: .active, status: .active,
              eventType: .priceChangePending, entitled: true),
        .init(notificationType: "PRICE_INCREASE", subtype: "ACCEPTED", prior: .active, status: .active,
              eventType: .priceChangeAccepted, entitled: true),
        .init(notificationType: "REFUND", subtype: nil, prior: .active, status: .revoked, eventType: .refunded, entitled: false),
        .init(notificationType: "REVOKE", subtype: nil, prior: .active, status: .revoked, eventType: .revoked, entitled: false),
    ]

    /// Fixtures in apple/ that are not table rows (documented behaviour outside the table).
    static let extras: Set<String> = ["apple/REFUND_REVERSED.json", "apple/REFUND_DECLINED.json", "apple/UNKNOWN_TYPE.json"]
}
