import BillingCore
import Foundation
import Postgres
import ProjectionStore
import TestSupport

/// A migrated database with one account, one plan and its Apple product mapping, plus builders for
/// realistic Apple store states (the decoded parts of a verified notification).
struct StoreWorld {
    let configuration: PostgresConfiguration
    let accountToken: UUID
    let accountID: String
    let planID: String
    static let product = "com.example.fitness.pro.monthly"
    static let day: TimeInterval = 86_400
    static let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z

    static func make(_ name: String) throws -> StoreWorld {
        let mapped = try MappedAppleAccount.make(name, product: product)
        return StoreWorld(configuration: mapped.configuration, accountToken: mapped.accountToken,
                          accountID: mapped.seed.accountID.uuidString.lowercased(), planID: mapped.seed.planID.uuidString.lowercased())
    }

    func connect() throws -> PostgresConnection { try PostgresConnection(configuration: configuration) }

    /// An Apple notification with its decoded transaction and renewal info.
    func apple(_ type: String, subtype: String? = nil, original: String, transaction: String, signedDay: Double,
               expiresDay: Double, autoRenew: Bool = true, priceMilli: Int = 9990, uuid: String = UUID().uuidString) throws -> StoreState {
        let signed = Int64((Self.start.timeIntervalSince1970 + signedDay * Self.day) * 1000)
        let expires = Int64((Self.start.timeIntervalSince1970 + expiresDay * Self.day) * 1000)
        let purchase = expires - Int64(30 * Self.day * 1000)
        let json = """
            {"notification": {"notificationType": "\(type)", \(subtype.map { "\"subtype\": \"\($0)\"," } ?? "")
              "notificationUUID": "\(uuid)", "version": "2.0", "signedDate": \(signed),
              "data": {"environment": "Production", "appAppleId": 1478523690, "bundleId": "com.example.fitness", "status": 1}},
             "transactionInfo": {"transactionId": "\(transaction)", "originalTransactionId": "\(original)",
              "bundleId": "com.example.fitness", "productId": "\(Self.product)", "purchaseDate": \(purchase),
              "originalPurchaseDate": \(purchase), "expiresDate": \(expires), "quantity": 1, "type": "Auto-Renewable Subscription",
              "appAccountToken": "\(accountToken.uuidString.lowercased())", "inAppOwnershipType": "PURCHASED", "signedDate": \(signed),
              "environment": "Production", "transactionReason": "\(type == "SUBSCRIBED" ? "PURCHASE" : "RENEWAL")",
              "storefront": "USA", "price": \(priceMilli), "currency": "USD"},
             "renewalInfo": {"originalTransactionId": "\(original)", "productId": "\(Self.product)", "autoRenewProductId": "\(Self.product)",
              "autoRenewStatus": \(autoRenew ? 1 : 0), "signedDate": \(signed), "environment": "Production", "renewalDate": \(expires),
              "currency": "USD", "renewalPrice": \(priceMilli)}}
            """
        struct Parts: Decodable {
            let notification: ResponseBodyV2DecodedPayload
            let transactionInfo: JWSTransactionDecodedPayload
            let renewalInfo: JWSRenewalInfoDecodedPayload
        }
        let parts = try JSONDecoder().decode(Parts.self, from: Data(json.utf8))
        return .apple(AppleStoreState(notification: parts.notification, transaction: parts.transactionInfo,
                                      renewalInfo: parts.renewalInfo, rawPayload: Data(json.utf8)))
    }

    static func at(_ day: Double) -> Date { start.addingTimeInterval(day * Self.day) }
}

/// `#require` for a plain optional in a non-test helper.
func requireValue<T>(_ value: T?, _ message: String = "missing value") throws -> T {
    guard let value else { throw MissingValue(message: message) }
    return value
}

/// A value a test set-up needed was absent.
struct MissingValue: Error { let message: String }
