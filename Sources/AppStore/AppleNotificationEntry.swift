import BillingCore

/// A verified notification from Get Notification History or a test notification, with its signed form.
public struct AppleNotificationEntry: Sendable {
    /// The signed payload exactly as Apple sent it (stored in InboundWebhookEvent).
    public let signedPayload: String
    public let notification: ResponseBodyV2DecodedPayload
    /// The verified `data.signedTransactionInfo`, when the notification carries one.
    public let transaction: JWSTransactionDecodedPayload?
    /// The verified `data.signedRenewalInfo`, when the notification carries one.
    public let renewalInfo: JWSRenewalInfoDecodedPayload?
    public let sendAttempts: [SendAttemptItem]
}
