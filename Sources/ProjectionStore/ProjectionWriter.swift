import BillingCore
import Foundation
import Postgres

/// The one transactional writer: locks the subscription, lets the pure projection decide, writes the outcome.
///
/// Everything happens in one transaction, so an error anywhere leaves nothing half-written. Concurrent
/// writers for one subscription serialise on its row lock (`SELECT … FOR UPDATE`); two writers creating
/// the same new subscription collide on the identity's unique key and the loser retries, then finds the row.
/// A transaction the server aborts as a deadlock or serialization failure is run again (`retryingTransaction`).
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
    /// `afterWrite`, when given, runs last inside the same transaction with what was written (e.g. to mark the
    /// triggering event processed); statements it queues (`enqueue`) travel with COMMIT.
    public func apply(_ key: SubscriptionKey, trigger: ProjectionTrigger,
                      afterWrite: ((PostgresConnection, WriteResult) throws -> Void)? = nil,
                      project: (SubscriptionSnapshot?) throws -> ProjectionOutcome) throws -> WriteResult {
        try write(key, trigger: trigger, references: nil, afterWrite: afterWrite) { current, _ in try project(current) }
    }

    private func write(_ key: SubscriptionKey, trigger: ProjectionTrigger, references: PipelinedStep<ResolvedReferences>?,
                       afterWrite: ((PostgresConnection, WriteResult) throws -> Void)?,
                       project: (SubscriptionSnapshot?, ResolvedReferences?) throws -> ProjectionOutcome) throws -> WriteResult {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try database.retryingTransaction { db in
                    let result = try applyOnce(db, key, trigger, references, project)
                    try afterWrite?(db, result)
                    return result
                }
            } catch let error as PostgresError where error.isUniqueViolation && attempt < 3 {
                continue
            } catch is CreationRace where attempt < 3 {
                continue   // another writer created the subscription first; the retry finds and locks its row
            }
        }
    }

    /// Three round trips for a known subscription: BEGIN with the locking snapshot read and the references the
    /// projection resolves; what drift compares against (read before any write) with the identity when it changed;
    /// and COMMIT with the queued writes (subscription, new history rows, entitlement, drift, what `afterWrite` queued).
    private func applyOnce(_ db: PostgresConnection, _ key: SubscriptionKey, _ trigger: ProjectionTrigger,
                           _ references: PipelinedStep<ResolvedReferences>?,
                           _ project: (SubscriptionSnapshot?, ResolvedReferences?) throws -> ProjectionOutcome) throws -> WriteResult {
        let reader = SnapshotReader(database: db)
        let snapshotRead = reader.lockAndRead(key)
        var located = try PipelinedResults(db, [snapshotRead.statement] + (references.map { [$0.statement] } ?? []))
        let before = try located.take(snapshotRead)
        let outcome = try project(before, try references.map { try located.take($0) })
        guard outcome.subscription.provider != .web else {
            throw ProjectionStoreError.unsupportedProvider("WEB")
        }
        let rows = OutcomeRows(database: db)
        let subscriptionId = try before?.id ?? rows.insertSubscription(outcome.subscription, now: trigger.now)
        let entitlementRead = outcome.entitlement.billingAccountId.map {
            reader.entitlement(accountId: $0, planId: outcome.entitlement.planId)
        }
        let keysRead = reader.existingTransactionKeys(outcome.transactionKeys)
        let priceChangeRead = before == nil ? nil : outcome.priceChange.map {
            reader.priceChangeState(subscriptionId: subscriptionId, currencyCode: $0.currencyCode, newAmountMicros: $0.newAmountMicros)
        }
        let identity = rows.writeIdentity(subscriptionId: subscriptionId, outcome, before: before)
        var results = try PipelinedResults(db, [entitlementRead?.statement, keysRead.statement, priceChangeRead?.statement].compactMap { $0 }
                                               + identity.map(\.statement))
        let storedEntitlement = try entitlementRead.flatMap { try results.take($0) }
        let existingKeys = try results.take(keysRead)
        let priceChangeBefore: String?? = try priceChangeRead.map { try results.take($0) }
        do {
            for step in identity { try results.take(step) }
        } catch ProjectionStoreError.identityOwnedByAnotherSubscription where before == nil {
            throw CreationRace()
        }
        try rows.updateSubscription(id: subscriptionId, outcome.subscription, isSandbox: outcome.flags.environment == .sandbox, now: trigger.now)
        let inserted = try rows.insertTransactions(subscriptionId: subscriptionId, outcome.transactions, existing: existingKeys, trigger: trigger)
        if storedEntitlement?.holds(outcome.entitlement, from: subscriptionId) != true || before?.planId != outcome.subscription.planId {
            try rows.upsertEntitlement(subscriptionId: subscriptionId, outcome.entitlement)
        }
        if outcome.disposition != .stale {
            try rows.recordEntitlementInterval(subscriptionId: subscriptionId, outcome.entitlement,
                                               endedAt: Self.entitlementEnd(outcome, now: trigger.now))
        }
        if let change = outcome.priceChange { try rows.upsertPriceChange(subscriptionId: subscriptionId, change, now: trigger.now) }

        var drift: [DriftFinding] = []
        if case .requery = trigger.source {
            let missing = outcome.transactionKeys.filter { !existingKeys.contains($0) }
            drift = DriftFinding.compare(database: before, entitledBefore: storedEntitlement?.isActive, outcome: outcome,
                                         missingTransactionKeys: before == nil ? [] : missing, priceChangeBefore: priceChangeBefore)
            try rows.recordDrift(subscriptionId: subscriptionId, drift, jobRunID: jobRunID, at: trigger.now)
        }
        return WriteResult(subscriptionId: subscriptionId, disposition: outcome.disposition, created: before == nil,
                           insertedTransactions: inserted, drift: drift)
    }
}

extension ProjectionWriter {
    /// The store's instant an entitlement stopped: the earliest revocation, refund, hold or expiry row of the outcome,
    /// else the trigger's instant.
    static func entitlementEnd(_ outcome: ProjectionOutcome, now: Date) -> Date {
        let stops: Set<BillingEventType> = [.revoked, .refunded, .enteredOnHold, .expired, .paused]
        return outcome.transactions.filter { stops.contains($0.eventType) }.map(\.effectiveAt).min() ?? now
    }
}

/// Two writers created the same new subscription at once; the one that lost rolls back and retries.
struct CreationRace: Error {}

/// Why the writer refused an outcome.
public enum ProjectionStoreError: Error, CustomStringConvertible, Sendable {
    case unsupportedProvider(String)
    case identityOwnedByAnotherSubscription(String)
    case unknownSubscription(String)

    public var description: String {
        switch self {
        case .unsupportedProvider(let provider):
            return "provider \(provider) has no adapter yet; its purchases are rejected, not projected"
        case .identityOwnedByAnotherSubscription(let identity):
            return "store identity \(identity) already belongs to another subscription; it is never moved"
        case .unknownSubscription(let id):
            return "subscription \(id) does not exist"
        }
    }
}

extension ProjectionWriter {
    /// Projects a verified store state through `Projection.project` and writes the outcome: the one path every
    /// job (webhook replay, re-query, notification recovery, voided-purchase sweep) uses.
    /// `afterWrite` runs last inside the writer's transaction.
    public func project(_ storeState: StoreState, trigger: ProjectionTrigger,
                        settings: ProjectionSettings = .standard,
                        afterWrite: ((PostgresConnection, WriteResult) throws -> Void)? = nil) throws -> WriteResult {
        try write(SubscriptionKey(storeState), trigger: trigger, references: ReferenceResolver.references(for: storeState),
                  afterWrite: afterWrite) { current, references in
            try Projection.project(current: current, storeState: storeState, trigger: trigger, settings: settings,
                                   resolved: references ?? ResolvedReferences(tokenAccount: nil, plan: nil))
        }
    }
}
