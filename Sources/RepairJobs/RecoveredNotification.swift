import AppStore
import Foundation

/// The row recover-notifications stores for a notification Apple has but the database lacks: the verified decoded
/// form replay-events reads (`notification`, `transactionInfo`, `renewalInfo`) plus Apple's `signedPayload`.
struct RecoveredNotification {
    let uuid: String
    let environment: String
    /// The payload as JSON text.
    let payload: String

    /// Builds the row from a verified history entry; nil when the entry names no notificationUUID.
    init?(_ entry: AppleNotificationEntry) {
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
        var members: [String: Any] = ["signedPayload": entry.signedPayload]
        members["notification"] = Self.claims(entry.signedPayload)
        if let signed = entry.notification.data?.signedTransactionInfo { members["transactionInfo"] = Self.claims(signed) }
        if let signed = entry.notification.data?.signedRenewalInfo { members["renewalInfo"] = Self.claims(signed) }
        guard let data = try? JSONSerialization.data(withJSONObject: members, options: [.sortedKeys]) else { return nil }
        payload = String(decoding: data, as: UTF8.self)
    }

    /// The decoded claims of a JWS the client already verified (its middle, base64url part).
    static func claims(_ jws: String) -> Any? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text) else { return nil }
        return try? JSONSerialization.jsonObject(with: data)
    }
}
