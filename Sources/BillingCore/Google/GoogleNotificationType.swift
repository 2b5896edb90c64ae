/// An RTDN `subscriptionNotification.notificationType`.
public enum GoogleNotificationType: Int, Sendable, Hashable, CaseIterable {
    case recovered = 1
    case renewed = 2
    case canceled = 3
    case purchased = 4
    case onHold = 5
    case inGracePeriod = 6
    case restarted = 7
    case priceChangeConfirmed = 8
    case deferred = 9
    case paused = 10
    case pauseScheduleChanged = 11
    case revoked = 12
    case expired = 13
    case itemsChanged = 17
    case cancellationScheduled = 18
    case priceChangeUpdated = 19
    case pendingPurchaseCanceled = 20
    case priceStepUpConsentUpdated = 22
}
