import BillingCore

/// Get All Subscription Statuses: the subscription groups and the last transactions in each.
public struct StatusResponse: Sendable, Decodable {
    public var environment: String?
    public var bundleId: String?
    public var appAppleId: Int64?
    public var data: [SubscriptionGroupIdentifierItem]?
}
