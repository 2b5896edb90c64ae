import BillingCore
import Foundation
import Postgres

/// The one transactional writer: locks the subscription, lets the pure projection decide, writes the outcome.
///
/// Everything happens in one transaction, so an error anywhere leaves nothing half-written. Concurrent
/// writers for one subscription serialise on its row lock (`SELECT … FOR UPDATE`); two writers creating
/// the same new subscription collide on the identity's unique key and the loser retries, then finds the row.
public struct ProjectionWriter {
    public let database: PostgresConnection
    /// The `job_run` the drift rows belong to.
    public let jobRunID: Int64?

    /// A writer on `database`.
    public init(database: PostgresConnection, jobRunID: Int64? = nil) {
        self.database = database
        self.jobRunID = jobRunID
    }

    /// Applies `project(current)` to the subscription `key` names. `project` runs inside the transaction
    /// with the locked current state; it must be pure (it may run again after a lost creation race).
    /// `afterWrite`, when given, runs last inside the same transaction (e.g. to mark the triggering event processed).
    public func apply(_ key: SubscriptionKey, trigger: ProjectionTrigger,
                      afterWrite: ((PostgresConnection) throws -> Void)? = nil,
                      project: (SubscriptionSnapshot?) throws -> ProjectionOutcome) throws -> WriteResult {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try database.transaction { db in
                    let result = try applyOnce(db, key, trigger, project)
                    try afterWrite?(db)
                    return result
                }
            } catch let error as PostgresError where error.isUniqueViolation && attempt < 3 {
                continue
            } catch is CreationRace where attempt < 3 {
                continue   // another writer created the subscription first; the retry finds and locks its row
            }
        }
    }

    private func applyOnce(_ db: PostgresConnection, _ key: SubscriptionKey, _ trigger: ProjectionTrigger,
                           _ project: (SubscriptionSnapshot?) throws -> ProjectionOutcome) throws -> WriteResult {
        let reader = SnapshotReader(database: db)
        let existingID = try reader.locate(key)
        let before = try existingID.flatMap { try reader.lockAndRead(id: $0) }
        let outcome = try project(before)
        guard outcome.subscription.provider != .web else {
            throw ProjectionStoreError.unsupportedProvider("WEB")
        }
        let rows = OutcomeRows(database: db)
        let subscriptionId = try before?.id ?? rows.insertSubscription(outcome.subscription, now: trigger.now)
        let entitledBefore = try outcome.entitlement.billingAccountId.flatMap {
            try reader.entitlement(accountId: $0, planId: outcome.entitlement.planId)?.isActive
        }
        let existingKeys = try reader.existingTransactionKeys(outcome.transactionKeys)
        let priceChangeBefore: String?? = before == nil ? nil : try outcome.priceChange.map { change in
            try reader.priceChangeState(subscriptionId: subscriptionId, currencyCode: change.currencyCode, newAmountMicros: change.newAmountMicros)
        }
        try rows.updateSubscription(id: subscriptionId, outcome.subscription, isSandbox: outcome.flags.environment == .sandbox, now: trigger.now)
        do {
            try rows.writeIdentity(subscriptionId: subscriptionId, outcome)
        } catch ProjectionStoreError.identityOwnedByAnotherSubscription where before == nil {
            throw CreationRace()
        }
        let inserted = try rows.insertTransactions(subscriptionId: subscriptionId, outcome.transactions, trigger: trigger)
        try rows.upsertEntitlement(subscriptionId: subscriptionId, outcome.entitlement)
        if let change = outcome.priceChange { try rows.upsertPriceChange(subscriptionId: subscriptionId, change) }

        var drift: [DriftFinding] = []
        if case .requery = trigger.source {
            let missing = outcome.transactionKeys.filter { !existingKeys.contains($0) }
            drift = DriftFinding.compare(database: before, entitledBefore: entitledBefore, outcome: outcome,
                                         missingTransactionKeys: before == nil ? [] : missing, priceChangeBefore: priceChangeBefore)
            try rows.recordDrift(subscriptionId: subscriptionId, drift, jobRunID: jobRunID, at: trigger.now)
        }
        return WriteResult(subscriptionId: subscriptionId, disposition: outcome.disposition, created: before == nil,
                           insertedTransactions: inserted, drift: drift)
    }
}

/// Two writers created the same new subscription at once; the one that lost rolls back and retries.
struct CreationRace: Error {}

/// Why the writer refused an outcome.
public enum ProjectionStoreError: Error, CustomStringConvertible, Sendable {
    case unsupportedProvider(String)
    case identityOwnedByAnotherSubscription(String)

    public var description: String {
        switch self {
        case .unsupportedProvider(let provider):
            return "provider \(provider) has no adapter yet; its purchases are rejected, not projected"
        case .identityOwnedByAnotherSubscription(let identity):
            return "store identity \(identity) already belongs to another subscription; it is never moved"
        }
    }
}

extension ProjectionWriter {
    /// Projects a verified store state through `Projection.project` and writes the outcome: the one path every
    /// job (webhook replay, re-query, notification recovery, voided-purchase sweep) uses.
    /// `afterWrite` runs last inside the writer's transaction.
    public func project(_ storeState: StoreState, trigger: ProjectionTrigger,
                        settings: ProjectionSettings = .standard,
                        afterWrite: ((PostgresConnection) throws -> Void)? = nil) throws -> WriteResult {
        try apply(SubscriptionKey(storeState), trigger: trigger, afterWrite: afterWrite) { current in
            let references = try ReferenceResolver(database: database).references(for: storeState)
            return try Projection.project(current: current, storeState: storeState, trigger: trigger,
                                          settings: settings, resolved: references)
        }
    }
}
