import Foundation
import Testing
@testable import BillingCore

/// The on-disk shape of an Apple fixture: decoded notification plus decoded JWS parts, or a status entry.
struct AppleFixture: Decodable {
    var notification: ResponseBodyV2DecodedPayload?
    var transactionInfo: JWSTransactionDecodedPayload?
    var renewalInfo: JWSRenewalInfoDecodedPayload?
    var statusEntry: DecodedLastTransactionsItem?
}

/// The on-disk shape of a Google fixture: the Pub/Sub push envelope and the subscriptionsv2 re-query.
struct GoogleFixture: Decodable {
    var pubsub: PubSubPushEnvelope
    var subscriptionsv2: SubscriptionPurchaseV2
}

/// A loaded Google fixture.
struct LoadedGoogle {
    var state: GoogleStoreState
    var notification: DeveloperNotification
    var eventTime: Date
}

/// Loads fixtures from the test bundle's Fixtures folder.
enum Fixtures {
    static func root() throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    }

    static func exists(_ path: String) throws -> Bool {
        FileManager.default.fileExists(atPath: try root().appendingPathComponent(path).path)
    }

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: try root().appendingPathComponent(path))
    }

    /// Relative paths of the JSON files directly inside a fixture folder.
    static func list(_ folder: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: try root().appendingPathComponent(folder).path)
        return names.filter { $0.hasSuffix(".json") }.map { folder + "/" + $0 }.sorted()
    }

    static func appleFixture(_ path: String) throws -> AppleFixture {
        try JSONDecoder().decode(AppleFixture.self, from: try data(path))
    }

    /// The Apple store state of a fixture (notification with decoded parts, or a status entry).
    static func apple(_ path: String) throws -> AppleStoreState {
        let raw = try data(path)
        let fixture = try JSONDecoder().decode(AppleFixture.self, from: raw)
        if let entry = fixture.statusEntry {
            return AppleStoreState(statusEntry: entry, notification: fixture.notification, rawPayload: raw)
        }
        let transaction = try #require(fixture.transactionInfo)
        return AppleStoreState(notification: fixture.notification, transaction: transaction,
                               renewalInfo: fixture.renewalInfo, rawPayload: raw)
    }

    /// The Google store state of a fixture: RTDN decoded from the envelope, plus the re-queried purchase.
    static func google(_ path: String) throws -> LoadedGoogle {
        let raw = try data(path)
        let fixture = try JSONDecoder().decode(GoogleFixture.self, from: raw)
        let notification = try fixture.pubsub.message.decodedNotification()
        let token = try #require(notification.subscriptionNotification?.purchaseToken)
        let eventTime = try #require(notification.eventTime)
        let state = GoogleStoreState(purchaseToken: token, purchase: fixture.subscriptionsv2,
                                     notification: notification, rawPayload: raw)
        return LoadedGoogle(state: state, notification: notification, eventTime: eventTime)
    }
}
