import AppStore
import BillingCore
import Foundation
import GooglePlay
import Postgres
import ProjectionStore
import StoreCalls

/// Re-queries one subscription at its store and projects the verified answer through the one writer.
public struct RequeryItemProcessor {
    let database: PostgresConnection
    let writer: ProjectionWriter
    let stores: StoreClientSet
    let asOf: Date

    /// A processor on one worker connection.
    public init(database: PostgresConnection, jobRunID: Int64?, stores: StoreClientSet, asOf: Date) {
        self.database = database
        self.writer = ProjectionWriter(database: database, jobRunID: jobRunID)
        self.stores = stores
        self.asOf = asOf
    }

    /// Re-queries subscription `subscriptionId` (uuid).
    public func process(subscriptionId: String) -> RequeryItemOutcome {
        do {
            guard let row = try database.query("""
                SELECT \(RequeryTarget.columns)
                FROM subscription s LEFT JOIN apple_subscription_identity a ON a.subscription_id = s.id
                WHERE s.id = $1::uuid
                """, [subscriptionId]).first else { return .failed(ItemFailure("subscription \(subscriptionId) does not exist")) }
            return process(try RequeryTarget(row))
        } catch {
            return .failed(ItemFailure("subscription \(subscriptionId)", causedBy: error))
        }
    }

    /// Re-queries `target`; `afterWrite` runs inside the projection's transaction (statements it queues go with COMMIT).
    func process(_ target: RequeryTarget, afterWrite: ((PostgresConnection, WriteResult) throws -> Void)? = nil) -> RequeryItemOutcome {
        let subscriptionId = target.subscriptionId
        do {
            if target.provider == "APPLE", let original = target.originalTransactionId {
                return try requeryApple(subscriptionId: subscriptionId, originalTransactionId: original, sandbox: target.isSandbox,
                                        afterWrite: afterWrite)
            }
            if target.provider == "GOOGLE", let token = target.purchaseToken {
                return try requeryGoogle(subscriptionId: subscriptionId, token: token, afterWrite: afterWrite)
            }
            return .failed(ItemFailure("subscription \(subscriptionId) (\(target.provider)) has no store identity to query"))
        } catch {
            return .failed(ItemFailure("subscription \(subscriptionId)", causedBy: error))
        }
    }

    private func requeryApple(subscriptionId: String, originalTransactionId: String, sandbox: Bool,
                              afterWrite: ((PostgresConnection, WriteResult) throws -> Void)?) throws -> RequeryItemOutcome {
        guard stores.apple != nil else { return .failed(ItemFailure("subscription \(subscriptionId): Apple is not configured", kind: .notConfigured)) }
        let entries: [DecodedLastTransactionsItem]
        do {
            entries = try AttemptContext.$subscriptionId.withValue(subscriptionId) {
                try stores.appleStatuses(originalTransactionId: originalTransactionId, sandbox: sandbox)
            }
        } catch {
            return Self.failure(error, "subscription \(subscriptionId): Get All Subscription Statuses failed")
        }
        guard let entry = entries.first(where: {
            ($0.originalTransactionId ?? $0.transactionInfo.originalTransactionId) == originalTransactionId
        }) else {
            return .failed(ItemFailure("subscription \(subscriptionId): the store's statuses hold no entry for its originalTransactionId"))
        }
        return try project(.apple(AppleStoreState(statusEntry: entry)), afterWrite: afterWrite)
    }

    private func requeryGoogle(subscriptionId: String, token: String,
                               afterWrite: ((PostgresConnection, WriteResult) throws -> Void)?) throws -> RequeryItemOutcome {
        guard let google = stores.google else { return .failed(ItemFailure("subscription \(subscriptionId): Google Play is not configured", kind: .notConfigured)) }
        let answer: (purchase: SubscriptionPurchaseV2, raw: Data)
        do {
            answer = try AttemptContext.$subscriptionId.withValue(subscriptionId) { try google.subscription(token: token) }
        } catch let error as StoreCallError {
            if case .store(let inner) = error, let api = inner as? GooglePlayAPIError, api.classification == .gone {
                return .tokenGone
            }
            return Self.failure(error, "subscription \(subscriptionId): subscriptionsv2.get failed")
        } catch {
            return .failed(ItemFailure("subscription \(subscriptionId): subscriptionsv2.get failed", causedBy: error))
        }
        return try project(.google(GoogleStoreState(purchaseToken: token, purchase: answer.purchase, rawPayload: answer.raw)),
                           afterWrite: afterWrite)
    }

    /// A failed store call's outcome: an exhausted daily budget (no call was made) is told apart from a failure.
    static func failure(_ error: any Error, _ context: String) -> RequeryItemOutcome {
        if case .rateLimit(let limit)? = error as? StoreCallError, case .dailyBudgetExhausted = limit {
            return .budgetExhausted("\(context): \(limit)")
        }
        return .failed(ItemFailure(context, causedBy: error))
    }

    private func project(_ state: StoreState, afterWrite: ((PostgresConnection, WriteResult) throws -> Void)?) throws -> RequeryItemOutcome {
        let result = try writer.project(state, trigger: ProjectionTrigger(source: .requery, now: asOf), afterWrite: afterWrite)
        return .projected(drift: result.drift.map(\.kind.rawValue))
    }
}
