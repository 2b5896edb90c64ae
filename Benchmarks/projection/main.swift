// bench-projection: outcomes per second of the pure projection and of the PostgreSQL writer,
// on synthetic Apple subscription histories (purchase, renewals, auto-renew off, expiry).
//   bench-projection <histories> <writer-threads>
// Needs a migrated database with one billing account, plan and Apple product mapping (run.sh makes it).
import BillingCore
import Foundation
import Postgres
import ProjectionStore

struct History { let original: String; let accountID: String; let events: [StoreState] }

func appleState(_ type: String, _ subtype: String?, original: String, transaction: String, signed: Int64, expires: Int64,
                autoRenew: Bool, token: String, product: String) throws -> StoreState {
    let json = """
        {"notification": {"notificationType": "\(type)", \(subtype.map { "\"subtype\": \"\($0)\"," } ?? "")
          "notificationUUID": "\(UUID().uuidString)", "version": "2.0", "signedDate": \(signed),
          "data": {"environment": "Production", "appAppleId": 1478523690, "bundleId": "com.example.fitness", "status": 1}},
         "transactionInfo": {"transactionId": "\(transaction)", "originalTransactionId": "\(original)", "bundleId": "com.example.fitness",
          "productId": "\(product)", "purchaseDate": \(expires - 2_592_000_000), "originalPurchaseDate": \(expires - 2_592_000_000),
          "expiresDate": \(expires), "quantity": 1, "type": "Auto-Renewable Subscription", "appAccountToken": "\(token)",
          "inAppOwnershipType": "PURCHASED", "signedDate": \(signed), "environment": "Production", "storefront": "USA",
          "transactionReason": "\(type == "SUBSCRIBED" ? "PURCHASE" : "RENEWAL")", "price": 9990, "currency": "USD"},
         "renewalInfo": {"originalTransactionId": "\(original)", "productId": "\(product)", "autoRenewProductId": "\(product)",
          "autoRenewStatus": \(autoRenew ? 1 : 0), "signedDate": \(signed), "environment": "Production", "currency": "USD", "renewalPrice": 9990}}
        """
    struct Parts: Decodable {
        let notification: ResponseBodyV2DecodedPayload
        let transactionInfo: JWSTransactionDecodedPayload
        let renewalInfo: JWSRenewalInfoDecodedPayload
    }
    let parts = try JSONDecoder().decode(Parts.self, from: Data(json.utf8))
    return .apple(AppleStoreState(notification: parts.notification, transaction: parts.transactionInfo, renewalInfo: parts.renewalInfo,
                                  rawPayload: Data(json.utf8)))
}

func histories(_ accounts: [(id: String, token: String)], product: String) throws -> [History] {
    var random = SystemRandomNumberGenerator()
    let start: Int64 = 1_735_689_600_000
    let month: Int64 = 2_592_000_000
    return try accounts.enumerated().map { index, account in
        let token = account.token
        let original = String(3_000_000_000_000 + index * 100)
        let renewals = Int.random(in: 0...11, using: &random)
        var events = [try appleState("SUBSCRIBED", "INITIAL_BUY", original: original, transaction: original, signed: start,
                                     expires: start + month, autoRenew: true, token: token, product: product)]
        for renewal in 0..<renewals {
            events.append(try appleState("DID_RENEW", nil, original: original, transaction: String(Int(original)! + renewal + 1),
                                         signed: start + month * Int64(renewal + 1), expires: start + month * Int64(renewal + 2),
                                         autoRenew: true, token: token, product: product))
        }
        return History(original: original, accountID: account.id, events: events)
    }
}

let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
let threads = arguments.count > 2 ? Int(arguments[2]) ?? 2 : 2
let configuration = PostgresConfiguration.fromEnvironment(ProcessInfo.processInfo.environment, applicationName: "bench-projection")
let setup = try PostgresConnection(configuration: configuration)
// One user and billing account per history, as in a real population.
try setup.execute("""
    WITH u AS (INSERT INTO app_user (email) SELECT 'bench' || n || '@example.com' FROM generate_series(1, $1::int) n RETURNING id)
    INSERT INTO billing_account (user_id) SELECT id FROM u
    """, [count])
let accounts = try setup.query("SELECT id::text AS id, account_token::text AS token FROM billing_account ORDER BY id LIMIT $1", [count]).rows
    .map { (id: try $0.decode(String.self, "id"), token: try $0.decode(String.self, "token")) }
let planID = try setup.query("SELECT plan_id::text AS p FROM store_product_mapping LIMIT 1").first?.decode(String.self, "p") ?? ""
let product = try setup.query("SELECT product_id FROM store_product_mapping LIMIT 1").first?.decode(String.self, "product_id") ?? ""
let plan = ResolvedPlan(planId: planID, provider: .apple, productId: product, intervalUnit: .monthly)
let all = try histories(accounts, product: product)
let eventCount = all.reduce(0) { $0 + $1.events.count }

// Pure projection: fold every history's events, one outcome per event.
var started = Date()
var finals: [StoreState] = []
for history in all {
    var current: SubscriptionSnapshot?
    for event in history.events {
        let trigger = ProjectionTrigger(source: .webhook(inboundEventId: "bench"), now: Date(timeIntervalSince1970: 1_767_225_600))
        let references = ResolvedReferences(tokenAccount: ResolvedAccount(id: history.accountID), plan: plan)
        current = try Projection.project(current: current, storeState: event, trigger: trigger, resolved: references).subscription
    }
    finals.append(history.events[history.events.count - 1])
}
let pureSeconds = Date().timeIntervalSince(started)
print("pure: \(eventCount) outcomes over \(count) histories in \(String(format: "%.2f", pureSeconds)) s = \(Int(Double(eventCount) / pureSeconds)) outcomes/s (1 thread)")

// Writer: each history's final state applied as a re-query (lock, read, project, write, drift) on `threads` connections.
started = Date()
let failures = Failures()
let finalStates = finals
DispatchQueue.concurrentPerform(iterations: threads) { worker in
    do {
        let db = try PostgresConnection(configuration: configuration)
        let writer = ProjectionWriter(database: db)
        for index in stride(from: worker, to: finalStates.count, by: threads) {
            _ = try writer.project(finalStates[index], trigger: ProjectionTrigger(source: .requery, now: Date(timeIntervalSince1970: 1_767_225_600)))
        }
    } catch {
        failures.record("\(error)")
    }
}
let writerSeconds = Date().timeIntervalSince(started)
if let failure = failures.first { print("writer failed: \(failure)"); exit(1) }
print("writer: \(count) outcomes in \(String(format: "%.2f", writerSeconds)) s = \(Int(Double(count) / writerSeconds)) outcomes/s (\(threads) connections)")

/// Collects the first failure from the writer threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var first: String?
    func record(_ message: String) { lock.lock(); if first == nil { first = message }; lock.unlock() }
}
