import Foundation

/// A voided order, from the voided-purchase sweep or an RTDN `voidedPurchaseNotification`.
struct GoogleVoid {
    let orderId: String?
    let time: Date?
    /// Google `voidedSource` / `voidedReason` (a voided-purchase list item carries them; an RTDN does not).
    var source: Int?
    var reason: Int?

    /// The void the state carries, if any.
    init?(_ state: GoogleStoreState) {
        if let voided = state.voidedPurchase {
            orderId = voided.orderId
            time = voided.voidedTime ?? state.notification?.eventTime
            source = voided.voidedSource
            reason = voided.voidedReason
        } else if let notice = state.notification?.voidedPurchaseNotification {
            orderId = notice.orderId
            time = state.notification?.eventTime
        } else {
            return nil
        }
    }
}
