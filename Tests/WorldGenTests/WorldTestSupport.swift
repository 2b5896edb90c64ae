import BillingCore
import Crypto
import Foundation
import Postgres
import ProjectionStore
import StoreTruth
import TestSupport
@testable import WorldGen

/// Shared helpers: canonical dumps and final-state re-queries.
enum WorldTestSupport {
    static let tables = ["app_user", "billing_account", "plan", "store_product_mapping", "subscription", "apple_subscription_identity",
                         "google_purchase_token", "inbound_webhook_event", "billing_transaction", "subscription_price_change", "entitlement",
                         "fx_rate"]

    /// `SELECT t::text FROM table t ORDER BY 1` for every world table.
    static func dump(_ database: PostgresConnection) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for table in tables {
            result[table] = try database.query("SELECT t::text AS row FROM \(table) t ORDER BY 1").rows.map { try $0.decode(String.self, "row") }
        }
        return result
    }

    /// Every final store state of the truth, as the re-query job would see it.
    static func finalStates(_ truth: StoreTruth) throws -> [StoreState] {
        var states: [StoreState] = []
        let decoder = JSONDecoder()
        for subscription in truth.apple.subscriptions {
            guard let last = subscription.transactions.last else { continue }
            let entry = JSONValue.object(["status": .integer(Int64(subscription.status)),
                                          "originalTransactionId": .string(subscription.originalTransactionId),
                                          "transactionInfo": last, "renewalInfo": subscription.renewalInfo])
            let item = try decoder.decode(DecodedLastTransactionsItem.self, from: Data(JSONText.serialize(entry).utf8))
            states.append(.apple(AppleStoreState(statusEntry: item)))
        }
        for token in truth.google.subscriptions where token.queryable {
            let purchase = try decoder.decode(SubscriptionPurchaseV2.self, from: Data(JSONText.serialize(token.purchase).utf8))
            states.append(.google(GoogleStoreState(purchaseToken: token.purchaseToken, purchase: purchase)))
        }
        return states
    }

    /// Re-queries every final state through the real writer; returns drift, inserted rows and created
    /// subscriptions by store identifier (originalTransactionId or purchase token).
    static func requeryAll(_ world: GeneratedWorld, _ database: PostgresConnection) throws -> [String: [String]] {
        var findings: [String: [String]] = [:]
        let writer = ProjectionWriter(database: database)
        for state in try finalStates(world.truth) {
            let result = try writer.project(state, trigger: ProjectionTrigger(source: .requery, now: world.options.asOf))
            let notes = result.drift.map { "\($0.kind.rawValue):\($0.field):\($0.databaseValue ?? "nil")→\($0.storeValue ?? "nil")" }
                + (result.insertedTransactions > 0 ? ["inserted:\(result.insertedTransactions)"] : [])
                + (result.created ? ["created"] : [])
            let key: String
            switch state {
            case .apple(let apple): key = apple.transaction.originalTransactionId ?? ""
            case .google(let google): key = google.purchaseToken
            }
            if !notes.isEmpty { findings[key, default: []] += notes }
        }
        return findings
    }
}
