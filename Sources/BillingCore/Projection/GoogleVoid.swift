import Foundation

/// A voided order, from the voided-purchase sweep or an RTDN `voidedPurchaseNotification`.
struct GoogleVoid {
    let orderId: String?
    let time: Date?

    /// The void the state carries, if any.
    init?(_ state: GoogleStoreState) {
        if let voided = state.voidedPurchase {
            orderId = voided.orderId
            time = voided.voidedTime ?? state.notification?.eventTime
        } else if let notice = state.notification?.voidedPurchaseNotification {
            orderId = notice.orderId
            time = state.notification?.eventTime
        } else {
            return nil
        }
    }
}
