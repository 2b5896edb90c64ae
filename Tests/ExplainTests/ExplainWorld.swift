import BillingCore
import Foundation
import Postgres
import ProjectionStore
import TestSupport

/// A migrated database with one account, plan and Apple product mapping, and a builder of Apple store states
/// projected through the real `ProjectionWriter`, each arriving as a stored notification (`inbound_webhook_event`).
///
/// The payloads follow Apple's App Store Server Notifications V2 shapes: `responseBodyV2DecodedPayload`,
/// `JWSTransactionDecodedPayload` and `JWSRenewalInfoDecodedPayload` (developer.apple.com/documentation/
/// appstoreservernotifications), with the fields the projection reads (offerType / offerDiscountType for trials,
/// gracePeriodExpiresDate, priceIncreaseStatus, renewalPrice, revocationDate / revocationReason).
struct ExplainWorld {
    let configuration: PostgresConfiguration
    let accountToken: UUID
    static let product = "com.example.fitness.pro.monthly"
    static let day: TimeInterval = 86_400
    static let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z

    static func make(_ name: String) throws -> ExplainWorld {
        let mapped = try MappedAppleAccount.make(name, product: product)
        return ExplainWorld(configuration: mapped.configuration, accountToken: mapped.accountToken)
    }

    func connect() throws -> PostgresConnection { try PostgresConnection(configuration: configuration) }

    static func at(_ day: Double) -> Date { start.addingTimeInterval(day * Self.day) }

    /// One Apple notification for `original`, as the projection receives it after verification.
    struct Step {
        var type: String
        var subtype: String?
        var transaction: String
        var signedDay: Double
        var purchaseDay: Double
        var expiresDay: Double
        var priceMilli: Int64
        var renewalPriceMilli: Int64? = nil
        var freeTrial = false
        var graceUntilDay: Double? = nil
        var priceIncreaseStatus: Int? = nil
        var revokedDay: Double? = nil
    }

    /// Stores `step` as a processed notification received half an hour after it was signed, and projects it.
    @discardableResult
    func project(_ step: Step, original: String, db: PostgresConnection) throws -> WriteResult {
        func millis(_ day: Double) -> Int64 { Int64((Self.start.timeIntervalSince1970 + day * Self.day) * 1000) }
        let uuid = UUID().uuidString.lowercased()
        var notification: [String: Any] = [
            "notificationType": step.type, "notificationUUID": uuid, "version": "2.0", "signedDate": millis(step.signedDay),
            "data": ["environment": "Production", "appAppleId": 1478523690, "bundleId": "com.example.fitness", "status": 1],
        ]
        if let subtype = step.subtype { notification["subtype"] = subtype }
        var transaction: [String: Any] = [
            "transactionId": step.transaction, "originalTransactionId": original, "bundleId": "com.example.fitness",
            "productId": Self.product, "purchaseDate": millis(step.purchaseDay), "originalPurchaseDate": millis(0),
            "expiresDate": millis(step.expiresDay), "quantity": 1, "type": "Auto-Renewable Subscription",
            "appAccountToken": accountToken.uuidString.lowercased(), "inAppOwnershipType": "PURCHASED",
            "signedDate": millis(step.signedDay), "environment": "Production",
            "transactionReason": step.type == "SUBSCRIBED" ? "PURCHASE" : "RENEWAL",
            "storefront": "USA", "price": step.priceMilli, "currency": "USD",
        ]
        if step.freeTrial { transaction["offerType"] = 1; transaction["offerDiscountType"] = "FREE_TRIAL" }
        if let revoked = step.revokedDay { transaction["revocationDate"] = millis(revoked); transaction["revocationReason"] = 0 }
        var renewal: [String: Any] = [
            "originalTransactionId": original, "productId": Self.product, "autoRenewProductId": Self.product,
            "autoRenewStatus": 1, "signedDate": millis(step.signedDay), "environment": "Production",
            "renewalDate": millis(step.expiresDay), "currency": "USD", "renewalPrice": step.renewalPriceMilli ?? step.priceMilli,
        ]
        if let grace = step.graceUntilDay { renewal["gracePeriodExpiresDate"] = millis(grace); renewal["isInBillingRetryPeriod"] = true }
        if let status = step.priceIncreaseStatus { renewal["priceIncreaseStatus"] = status }
        let body: [String: Any] = ["notification": notification, "transactionInfo": transaction, "renewalInfo": renewal]
        let json = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        struct Parts: Decodable {
            let notification: ResponseBodyV2DecodedPayload
            let transactionInfo: JWSTransactionDecodedPayload
            let renewalInfo: JWSRenewalInfoDecodedPayload
        }
        let parts = try JSONDecoder().decode(Parts.self, from: json)
        let received = Self.at(step.signedDay).addingTimeInterval(1800)
        guard let eventID = try db.query("""
            INSERT INTO inbound_webhook_event (provider, provider_event_id, environment, verified, payload, received_at, processed_at,
                                               processing_attempts)
            VALUES ('APPLE', $1, 'PRODUCTION', true, $2::jsonb, $3, $3, 1) RETURNING id::text AS id
            """, [uuid, String(decoding: json, as: UTF8.self), received]).first?.decode(String.self, "id") else {
            throw SetupFailure(message: "no event id")
        }
        let state = StoreState.apple(AppleStoreState(notification: parts.notification, transaction: parts.transactionInfo,
                                                     renewalInfo: parts.renewalInfo, rawPayload: json))
        let writing = try db.query("SELECT clock_timestamp() AS t").first?.decode(Date.self, "t") ?? Date()
        let written = try ProjectionWriter(database: db).project(state, trigger: ProjectionTrigger(source: .webhook(inboundEventId: eventID), now: received))
        try backdate(subscription: written.subscriptionId, recordedSince: writing, to: received, db: db)
        return written
    }

    /// The story's clock: the database records a row when it writes it (the real clock), but this story is told as if
    /// each notification was projected when it arrived, so the rows just written are dated `received` as learned.
    private func backdate(subscription: String, recordedSince writing: Date, to received: Date, db: PostgresConnection) throws {
        _ = try db.execute("UPDATE billing_transaction SET recorded_at = $3 WHERE subscription_id = $1::uuid AND recorded_at >= $2",
                           [subscription, writing, received])
        _ = try db.execute("UPDATE entitlement_interval SET recorded_at = $3 WHERE subscription_id = $1::uuid AND recorded_at >= $2",
                           [subscription, writing, received])
        _ = try db.execute("""
            UPDATE subscription_price_change_transition t SET recorded_at = $3 FROM subscription_price_change c
            WHERE c.id = t.price_change_id AND c.subscription_id = $1::uuid AND t.recorded_at >= $2
            """, [subscription, writing, received])
    }
}

/// A test set-up step found the database not as expected.
struct SetupFailure: Error { let message: String }
