@testable import BillingCore

/// One row of the Google Play RTDN mapping table (docs/DATA_MODEL.md).
struct GoogleMappingRow: Sendable, CustomStringConvertible {
    var notificationType: Int
    var name: String
    var prior: SubscriptionStatus?
    var status: SubscriptionStatus
    /// nil: "(event record only)".
    var eventType: BillingEventType?
    var entitled: Bool

    var fixture: String { "google/" + (notificationType < 10 ? "0" : "") + "\(notificationType)_\(name).json" }
    var description: String { "\(notificationType) \(name)" }
}

/// The Google table, as docs/DATA_MODEL.md gives it (Google RTDN).
enum GoogleMappingTable {
    /// The notification types the table requires fixtures for.
    static let requiredTypes: Set<Int> = Set(1...13).union([19, 20, 22])

    static let rows: [GoogleMappingRow] = [
        .init(notificationType: 1, name: "SUBSCRIPTION_RECOVERED", prior: .onHold, status: .active, eventType: .recovered, entitled: true),
        .init(notificationType: 2, name: "SUBSCRIPTION_RENEWED", prior: .active, status: .active, eventType: .renewed, entitled: true),
        .init(notificationType: 3, name: "SUBSCRIPTION_CANCELED", prior: .active, status: .canceled, eventType: .canceled, entitled: true),
        .init(notificationType: 4, name: "SUBSCRIPTION_PURCHASED", prior: nil, status: .active, eventType: .purchased, entitled: true),
        .init(notificationType: 5, name: "SUBSCRIPTION_ON_HOLD", prior: .inGracePeriod, status: .onHold, eventType: .enteredOnHold,
              entitled: false),
        .init(notificationType: 6, name: "SUBSCRIPTION_IN_GRACE_PERIOD", prior: .active, status: .inGracePeriod,
              eventType: .enteredGracePeriod, entitled: true),
        .init(notificationType: 7, name: "SUBSCRIPTION_RESTARTED", prior: .canceled, status: .active, eventType: .restarted, entitled: true),
        .init(notificationType: 8, name: "SUBSCRIPTION_PRICE_CHANGE_CONFIRMED", prior: .active, status: .active,
              eventType: .priceChangeAccepted, entitled: true),
        .init(notificationType: 9, name: "SUBSCRIPTION_DEFERRED", prior: .active, status: .active, eventType: nil, entitled: true),
        .init(notificationType: 10, name: "SUBSCRIPTION_PAUSED", prior: .active, status: .paused, eventType: .paused, entitled: false),
        .init(notificationType: 11, name: "SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED", prior: .active, status: .active, eventType: nil,
              entitled: true),
        .init(notificationType: 12, name: "SUBSCRIPTION_REVOKED", prior: .active, status: .revoked, eventType: .revoked, entitled: false),
        .init(notificationType: 13, name: "SUBSCRIPTION_EXPIRED", prior: .canceled, status: .expired, eventType: .expired, entitled: false),
        .init(notificationType: 19, name: "SUBSCRIPTION_PRICE_CHANGE_UPDATED", prior: .active, status: .active,
              eventType: .priceChangePending, entitled: true),
        .init(notificationType: 20, name: "SUBSCRIPTION_PENDING_PURCHASE_CANCELED", prior: nil, status: .expired, eventType: nil,
              entitled: false),
        .init(notificationType: 22, name: "SUBSCRIPTION_PRICE_STEP_UP_CONSENT_UPDATED", prior: .active, status: .active,
              eventType: .priceChangePending, entitled: true),
    ]
}
