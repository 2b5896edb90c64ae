/// The `status` of a Get All Subscription Statuses entry (also in notification `data.status`).
public enum AppleSubscriptionStatus: Int, Sendable, Hashable, CaseIterable {
    case active = 1
    case expired = 2
    case billingRetry = 3
    case billingGracePeriod = 4
    case revoked = 5
}
