import BillingCore
import Foundation
import Postgres

/// What `ProjectionWriter.repairHistory` wrote: the history rows added and the refunds whose amount it corrected.
public struct HistoryRepair: Sendable, Hashable {
    /// Keys of the rows inserted (rows the database lacked).
    public let inserted: [String]
    /// Keys of refund rows whose amount the store stated otherwise (a Google partial refund recorded as whole).
    public let amended: [String]
}

extension ProjectionWriter {
    /// Adds to subscription `subscriptionId` the history rows a store answered for one by one (Apple's Transaction
    /// History, Google's Orders API), under the subscription's lock, in one transaction; the status, entitlement and
    /// state events are left to the projection of the latest state. `records` builds the rows from the locked snapshot.
    ///
    /// A row whose key exists is kept (insert-if-absent, as every writer of the history does), except the amount of a
    /// refund row: a refund the store states with another amount (a Google partial refund the voided-purchase sweep
    /// recorded as the whole charge) takes the store's amount. Each row added and each amount corrected is recorded as
    /// drift (`missing_transaction`; `price` on `billing_transaction.amount_micros`) for the run `jobRunID`.
    public func repairHistory(subscriptionId: String, trigger: ProjectionTrigger,
                              records: (SubscriptionSnapshot) throws -> [BillingTransactionRecord]) throws -> HistoryRepair {
        try database.retryingTransaction { db in
            let reader = SnapshotReader(database: db)
            let snapshotRead = reader.lockAndRead(.id(subscriptionId))
            var located = try PipelinedResults(db, [snapshotRead.statement])
            guard let snapshot = try located.take(snapshotRead) else {
                throw ProjectionStoreError.unknownSubscription(subscriptionId)
            }
            let rows = try records(snapshot)
            let stored = try Self.storedAmounts(db, keys: rows.map(\.transactionKey))
            let outcomeRows = OutcomeRows(database: db)
            _ = try outcomeRows.insertTransactions(subscriptionId: subscriptionId, rows, existing: Set(stored.keys), trigger: trigger)
            var drift: [DriftFinding] = []
            var inserted: [String] = []
            var amended: [String] = []
            for row in rows {
                guard let before = stored[row.transactionKey] else {
                    inserted.append(row.transactionKey)
                    drift.append(DriftFinding(kind: .missingTransaction, field: "billing_transaction", databaseValue: nil,
                                              storeValue: row.transactionKey))
                    continue
                }
                guard row.eventType == .refunded, let amount = row.amount, before != amount else { continue }
                try db.enqueue(PostgresStatement("""
                    UPDATE billing_transaction SET amount_micros = $2, currency_code = $3
                    WHERE transaction_key = $1 AND subscription_id = $4::uuid
                    """, [row.transactionKey, amount.micros, amount.currencyCode, subscriptionId]))
                amended.append(row.transactionKey)
                drift.append(DriftFinding(kind: .price, field: "billing_transaction.amount_micros",
                                          databaseValue: before.map { "\($0.micros) \($0.currencyCode)" },
                                          storeValue: "\(amount.micros) \(amount.currencyCode)"))
            }
            try outcomeRows.recordDrift(subscriptionId: subscriptionId, drift, jobRunID: jobRunID, at: trigger.now)
            return HistoryRepair(inserted: inserted, amended: amended)
        }
    }

    /// The stored amount (nil: none) of each of `keys` that exists.
    private static func storedAmounts(_ db: PostgresConnection, keys: [String]) throws -> [String: Money?] {
        guard !keys.isEmpty else { return [:] }
        var found: [String: Money?] = [:]
        for row in try db.query("""
            SELECT transaction_key, amount_micros, currency_code FROM billing_transaction WHERE transaction_key = ANY($1::text[])
            """, [PostgresTextArray(keys)]).rows {
            let micros = try row.decodeIfPresent(Int64.self, "amount_micros")
            let currency = try row.decodeIfPresent(String.self, "currency_code")
            found[try row.decode(String.self, "transaction_key")] = micros.flatMap { m in currency.map { Money(micros: m, currencyCode: $0) } }
        }
        return found
    }
}
