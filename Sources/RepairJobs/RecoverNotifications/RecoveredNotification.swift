import AppStore
import Crypto
import Foundation

/// The row recover-notifications stores for a notification Apple has but the database lacks: the verified decoded
/// form replay-events reads (`notification`, `transactionInfo`, `renewalInfo`) plus Apple's `signedPayload`.
struct RecoveredNotification {
    let uuid: String
    let environment: String
    /// The payload as JSON text.
    let payload: String

    /// Builds the row from a verified history entry; nil when the entry names no notificationUUID. A payload that
    /// does not encode throws (the entry is reported as failed, never counted as unusable).
    init?(_ entry: AppleNotificationEntry) throws {
        guard let uuid = entry.notification.notificationUUID else { return nil }
        self.uuid = uuid
        let notification = entry.notification
        // RESCIND_CONSENT names its environment in appData; EXTERNAL_PURCHASE_TOKEN by its id's SANDBOX prefix.
        let named = notification.data?.rawEnvironment ?? notification.summary?.environment ?? notification.appData?.environment
            ?? notification.externalPurchaseToken?.environmentValue.rawValue
        switch named?.uppercased() {
        case "SANDBOX": environment = "SANDBOX"
        case "PRODUCTION": environment = "PRODUCTION"
        default: environment = "UNKNOWN"
        }
        var members: [String: JSONValue] = ["signedPayload": .string(entry.signedPayload)]
        members["notification"] = CompactJWS.claims(entry.signedPayload)
        if let signed = entry.notification.data?.signedTransactionInfo { members["transactionInfo"] = CompactJWS.claims(signed) }
        if let signed = entry.notification.data?.signedRenewalInfo { members["renewalInfo"] = CompactJWS.claims(signed) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(JSONValue.object(members))
        payload = String(decoding: data, as: UTF8.self)
    }
}
