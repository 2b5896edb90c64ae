/// One injected projection fault, with what the database shows and what the correct value is.
public struct InjectedFault: Sendable, Hashable, Codable {
    public var kind: ProjectionFault
    public var subscriptionId: String
    /// APPLE or GOOGLE.
    public var provider: String
    /// originalTransactionId (Apple) or the current purchase token (Google).
    public var storeIdentifier: String
    /// The notificationUUID, Pub/Sub messageId or voided orderId the fault concerns, if any.
    public var eventId: String?
    /// The field or row that is wrong (e.g. `status`, `acknowledgement_status`, `billing_transaction`).
    public var field: String
    /// What the database holds (nil: absent).
    public var databaseValue: String?
    /// What it should hold per the store truth.
    public var correctValue: String?
}
