/// A decoded, verified App Store Server Notification V2 (`ResponseBodyV2DecodedPayload`).
///
/// Exactly one of `data`, `summary`, `appData` (`RESCIND_CONSENT`) and `externalPurchaseToken`
/// (`EXTERNAL_PURCHASE_TOKEN`) carries the app fields. The last two concern no subscription: the pipeline records
/// them (the inbound event is kept and marked processed) and changes no subscription state.
public struct ResponseBodyV2DecodedPayload: Sendable, Equatable, Decodable {
    /// Raw `notificationType`; see `notificationTypeValue`.
    public var rawNotificationType: String?
    /// Raw `subtype`; see `subtypeValue`.
    public var rawSubtype: String?
    public var notificationUUID: String?
    public var version: String?
    public var signedDate: AppleTimestamp?
    public var data: NotificationData?
    public var summary: NotificationSummary?
    /// The app fields of a notification about the app (e.g. `RESCIND_CONSENT`).
    public var appData: NotificationAppData?
    /// The token of an `EXTERNAL_PURCHASE_TOKEN` notification.
    public var externalPurchaseToken: ExternalPurchaseToken?

    enum CodingKeys: String, CodingKey {
        case rawNotificationType = "notificationType", rawSubtype = "subtype"
        case notificationUUID, version, signedDate, data, summary, appData, externalPurchaseToken
    }

    /// Creates a notification from its parts.
    public init(notificationType: String?, subtype: String? = nil, notificationUUID: String?,
                signedDate: AppleTimestamp?, data: NotificationData? = nil) {
        self.rawNotificationType = notificationType
        self.rawSubtype = subtype
        self.notificationUUID = notificationUUID
        self.version = "2.0"
        self.signedDate = signedDate
        self.data = data
    }

    /// The typed `notificationType`, nil when absent or unknown.
    public var notificationTypeValue: AppleNotificationType? { rawNotificationType.flatMap(AppleNotificationType.init(rawValue:)) }
    /// The typed `subtype`, nil when absent or unknown.
    public var subtypeValue: AppleNotificationSubtype? { rawSubtype.flatMap(AppleNotificationSubtype.init(rawValue:)) }
}
