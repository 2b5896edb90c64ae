import BillingCore
import Foundation

/// Folds a subscription's events through `Projection.project` in memory, writing rows the way
/// `ProjectionWriter` does, so the loaded database equals what the webhook path would have produced.
struct Replayer {
    let index: Int
    let ids: WorldIdentifiers
    let accountId: String
    let mappings: [String: ResolvedPlan]
    var rows: LedgerRows
    private var transactionSeq = 0

    init(index: Int, ids: WorldIdentifiers, accountId: String, mappings: [String: ResolvedPlan]) {
        self.index = index
        self.ids = ids
        self.accountId = accountId
        self.mappings = mappings
        rows = LedgerRows(subscriptionId: ids.uuid(.subscription, index))
    }

    /// The subscription as `SnapshotReader` would read it back.
    var current: SubscriptionSnapshot? {
        guard var snapshot = rows.snapshot else { return nil }
        snapshot.id = rows.subscriptionId
        snapshot.accountHasHadTrial = snapshot.trialEndsAt != nil
        snapshot.openPriceChange = rows.priceChanges.last { $0.change.state.isOpen }?.change
        if snapshot.provider == .google, let token = rows.tokens.filter(\.isCurrent).max(by: { ($0.updatedMs, $0.createdMs) < ($1.updatedMs, $1.createdMs) }) {
            snapshot.google = GoogleTokenIdentity(purchaseToken: token.token, linkedPurchaseToken: token.linked)
        }
        if let apple = snapshot.apple { snapshot.apple?.latestTransactionId = rows.appleLatest ?? apple.latestTransactionId }
        return snapshot
    }

    /// The references `ReferenceResolver` would find for an event.
    func references(_ event: WorldEvent) -> ResolvedReferences {
        let provider = event.state.provider.rawValue
        let plan = mappings["\(provider)|\(event.productId)|\(event.basePlanId)|\(event.offerId)"]
            ?? mappings["\(provider)|\(event.productId)|\(event.basePlanId)|"]
        return ResolvedReferences(tokenAccount: ResolvedAccount(id: accountId, hasHadTrial: rows.snapshot?.trialEndsAt != nil), plan: plan)
    }

    /// Projects and applies one event at `nowMs`.
    mutating func apply(_ event: WorldEvent, nowMs: Int64) throws {
        let trigger = ProjectionTrigger(source: event.inbound.map { .webhook(inboundEventId: $0.id) } ?? .voidedPurchaseSweep,
                                        now: WorldClock.date(nowMs))
        let outcome: ProjectionOutcome
        do {
            outcome = try Projection.project(current: current, storeState: event.state, trigger: trigger, resolved: references(event))
        } catch {
            throw WorldError.projectionFailed(subscription: index, event: event.label, reason: "\(error)")
        }
        write(outcome, nowMs: nowMs, acknowledge: event.acknowledgeAfter)
    }

    mutating func write(_ outcome: ProjectionOutcome, nowMs: Int64, acknowledge: Bool) {
        var snapshot = outcome.subscription
        if snapshot.lastVerifiedAt == nil { snapshot.lastVerifiedAt = WorldClock.date(nowMs) }
        if let before = rows.snapshot {
            if before.status != snapshot.status || before.autoRenew != snapshot.autoRenew || before.currentPeriodEndAt != snapshot.currentPeriodEndAt {
                rows.updatedMs = nowMs
            }
        } else {
            rows.createdMs = nowMs
            rows.updatedMs = nowMs
        }
        if acknowledge { snapshot.acknowledgementStatus = .acknowledged }
        rows.snapshot = snapshot
        if let apple = snapshot.apple {
            if rows.appleCreatedMs == 0 { rows.appleCreatedMs = nowMs; rows.appleUpdatedMs = nowMs }
            if let latest = apple.latestTransactionId, latest != rows.appleLatest {
                if rows.appleLatest != nil { rows.appleUpdatedMs = nowMs }
                rows.appleLatest = latest
            }
        }
        for change in outcome.tokenChanges {
            if let position = rows.tokens.firstIndex(where: { $0.token == change.purchaseToken }) {
                if rows.tokens[position].isCurrent != change.isCurrent { rows.tokens[position].updatedMs = nowMs }
                rows.tokens[position].isCurrent = change.isCurrent
                rows.tokens[position].linked = change.linkedPurchaseToken ?? rows.tokens[position].linked
            } else {
                rows.tokens.append(.init(token: change.purchaseToken, linked: change.linkedPurchaseToken, isCurrent: change.isCurrent,
                                         createdMs: nowMs, updatedMs: nowMs))
            }
        }
        for record in outcome.transactions where !rows.keys.contains(record.transactionKey) {
            rows.keys.insert(record.transactionKey)
            rows.transactions.append(.init(record: record, id: ids.uuid(.transaction, index, transactionSeq), createdMs: nowMs))
            transactionSeq += 1
        }
        let entitlement = outcome.entitlement
        if entitlement.billingAccountId != nil {
            if var existing = rows.entitlements[entitlement.planId] {
                if existing.value != entitlement { existing.value = entitlement; existing.updatedMs = nowMs }
                rows.entitlements[entitlement.planId] = existing
            } else {
                rows.entitlements[entitlement.planId] = .init(value: entitlement, createdMs: nowMs, updatedMs: nowMs)
                rows.entitlementOrder.append(entitlement.planId)
            }
            // As the writer does: the subscription entitles its current plan only; the row it left is switched off.
            for plan in rows.entitlementOrder where plan != entitlement.planId && rows.entitlements[plan]?.value.isActive == true {
                rows.entitlements[plan]?.value.isActive = false
                rows.entitlements[plan]?.updatedMs = nowMs
            }
        }
        if let change = outcome.priceChange {
            if let open = rows.priceChanges.lastIndex(where: { $0.change.state.isOpen }) {
                rows.priceChanges[open].change = change
                rows.priceChanges[open].updatedMs = nowMs
            } else if !rows.priceChanges.contains(where: {
                $0.change.state == change.state && $0.change.currencyCode == change.currencyCode
                    && $0.change.newAmountMicros == change.newAmountMicros && $0.change.sourceEventKey == change.sourceEventKey
            }) {
                rows.priceChanges.append(.init(change: change, id: ids.uuid(.priceChange, index, rows.priceChanges.count),
                                               createdMs: nowMs, updatedMs: nowMs))
            }
            // As the writer does: each state once, on the latest row of that currency and new price, at the earliest
            // instant any state named for it.
            if let target = rows.priceChanges.lastIndex(where: {
                $0.change.currencyCode == change.currencyCode && $0.change.newAmountMicros == change.newAmountMicros
            }) {
                let atMs = change.stateAt.map(WorldClock.ms) ?? nowMs
                if let seen = rows.priceChanges[target].transitions.firstIndex(where: { $0.state == change.state }) {
                    rows.priceChanges[target].transitions[seen].atMs = min(rows.priceChanges[target].transitions[seen].atMs, atMs)
                } else {
                    rows.priceChanges[target].transitions.append((change.state, atMs, nowMs))
                }
            }
        }
    }
}
