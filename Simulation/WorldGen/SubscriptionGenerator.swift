import BillingCore
import Crypto
import SeededRandom
import StoreTruth

/// Generates one subscription end to end: story → store payloads → (faulted) projection → rows.
struct SubscriptionGenerator {
    let options: WorldOptions
    let catalogue: WorldCatalogue
    let ids: WorldIdentifiers
    let asOfMs: Int64
    let mappings: [String: ResolvedPlan]
    let builder: StoryBuilder

    func generate(_ index: Int) throws -> WorldSubscription {
        let story = builder.story(index: index)
        let accountToken = ids.uuid(.accountToken, index)
        let accountId = ids.uuid(.account, index)
        var fault = chooseFault(story)
        var subscription = WorldSubscription(index: index, userId: ids.uuid(.user, index), accountId: accountId,
                                             accountToken: accountToken, createdMs: story.steps[0].atMs - WorldClock.hour,
                                             rows: LedgerRows(subscriptionId: ids.uuid(.subscription, index)))
        var events: [WorldEvent]
        if story.isApple {
            let output = AppleRenderer(catalogue: catalogue, ids: ids, asOfMs: asOfMs).render(story, accountToken: accountToken)
            subscription.apple = output.truth
            subscription.appleNotifications = output.notifications
            events = output.events
        } else {
            let output = try GoogleRenderer(catalogue: catalogue, ids: ids, asOfMs: asOfMs)
                .render(story, accountToken: accountToken, skipAcknowledgement: fault == .acknowledgementPendingInStore)
            subscription.googleTokens = output.tokens
            subscription.googleVoided = output.voided
            events = output.events
        }
        var replayer = Replayer(index: index, ids: ids, accountId: accountId, mappings: mappings)
        let storeIdentifier = subscription.apple?.originalTransactionId ?? subscription.googleTokens.last?.purchaseToken ?? ""
        let provider = story.isApple ? "APPLE" : "GOOGLE"
        func record(_ kind: ProjectionFault, eventId: String?, field: String, database: String?, correct: String?) {
            subscription.faults.append(InjectedFault(kind: kind, subscriptionId: replayer.rows.subscriptionId, provider: provider,
                                                     storeIdentifier: storeIdentifier, eventId: eventId, field: field,
                                                     databaseValue: database, correctValue: correct))
        }
        let lastIndex = events.count - 1
        if fault == .appleNotificationNotStored && events.count < 2 { fault = nil }
        let hiddenIndex = fault == .appleNotificationNotStored ? Int(SplitMix64.hash(options.seed ^ UInt64(index)) % UInt64(lastIndex)) : -1
        for (position, event) in events.enumerated() {
            let isLast = position == lastIndex
            var event = event
            let eventId = event.inbound?.providerEventId ?? event.label
            if isLast, let kind = fault, [.missedNotification, .failedWebhook, .refundNotReflected, .voidedPurchaseNotApplied].contains(kind) {
                switch kind {
                case .missedNotification:
                    markUndelivered(&subscription, event)
                    record(kind, eventId: eventId, field: "notification", database: nil, correct: event.label)
                case .failedWebhook:
                    if var inbound = event.inbound {
                        inbound.processedAtMs = nil
                        inbound.processingError = "projection failed: connection reset while writing (simulated)"
                        replayer.rows.inbound.append(inbound)
                    }
                    record(kind, eventId: eventId, field: "inbound_webhook_event.processed_at", database: nil, correct: event.label)
                default:
                    if let inbound = event.inbound { replayer.rows.inbound.append(inbound) }
                    record(kind, eventId: eventId, field: "status", database: replayer.current?.status.rawValue, correct: "REVOKED")
                }
                continue
            }
            if position == hiddenIndex {
                markUndelivered(&subscription, event)
                record(.appleNotificationNotStored, eventId: eventId, field: "inbound_webhook_event", database: nil, correct: event.label)
                continue
            }
            let nowMs = event.inbound?.processedAtMs ?? min(event.atMs + WorldClock.hour, asOfMs)
            if let inbound = event.inbound { replayer.rows.inbound.append(inbound) }
            if fault == .acknowledgementPendingInStore { event.acknowledgeAfter = false }
            try replayer.apply(event, nowMs: nowMs)
        }
        if fault == .acknowledgementPendingInStore {
            record(.acknowledgementPendingInStore, eventId: nil, field: "acknowledgement_status", database: "PENDING", correct: "ACKNOWLEDGED")
        }
        if fault == .acknowledgementNotRecorded, var snapshot = replayer.rows.snapshot {
            snapshot.acknowledgementStatus = .pending
            replayer.rows.snapshot = snapshot
            record(.acknowledgementNotRecorded, eventId: nil, field: "acknowledgement_status", database: "PENDING", correct: "ACKNOWLEDGED")
        }
        if fault == .stalePrice, var snapshot = replayer.rows.snapshot, let price = snapshot.currentPrice,
           let old = replayer.rows.transactions.first(where: { $0.record.eventType == .priceChanged })?.record {
            _ = old
            let previous = catalogue.priceChanges.first { $0.newMicros == price.micros && $0.currency == price.currencyCode }?.oldMicros
            if let previous {
                snapshot.currentPrice = Money(micros: previous, currencyCode: price.currencyCode)
                replayer.rows.snapshot = snapshot
                record(.stalePrice, eventId: nil, field: "current_recurring_price_micros", database: String(previous), correct: String(price.micros))
            }
        }
        subscription.rows = replayer.rows
        subscription.story = story
        return subscription
    }

    /// Apple's record of a notification the server never stored: the delivery attempts failed.
    private func markUndelivered(_ subscription: inout WorldSubscription, _ event: WorldEvent) {
        guard let position = event.appleNotification else { return }
        let signed = subscription.appleNotifications[position].payload["signedDate"]?.int64Value ?? event.atMs
        subscription.appleNotifications[position].sendAttempts = (0..<3).map { attempt in
            .object(["attemptDate": .integer(signed + 400 + Int64(attempt) * 3_600_000),
                     "sendAttemptResult": .string(attempt == 0 ? "TIMED_OUT" : "UNSUCCESSFUL_HTTP_RESPONSE_CODE")])
        }
    }

    /// At most one fault per subscription, drawn from its own stream so the story never changes.
    func chooseFault(_ story: Story) -> ProjectionFault? {
        guard !options.faultShares.isEmpty, let last = story.steps.last else { return nil }
        var rng = SplitMix64(seed: options.seed, salt: 0x4641_554C_54, index: UInt64(story.index))
        let lastIsSweep = !story.isApple && { if case .refund = last.step { return true } else { return false } }()
        let lastIsEvent: Bool = {
            switch last.step {
            case .pendingStart: return false
            case .downgradeScheduled, .familyRevoke: return story.isApple
            default: return true
            }
        }()
        let lastIsRevocation: Bool = { if case .refund = last.step { return true }; return last.step == .familyRevoke }()
        let googleLive = !story.isApple && [StoryStep.renew, .recover, .autoRenewOn, .priceAccept].contains(last.step)
        let recentPurchase: Bool = { if case .purchase = last.step { return true } else { return false } }()
            && asOfMs - last.atMs < 3 * WorldClock.day
        let changed = story.steps.contains { step in
            if case .priceNotice(let change) = step.step { return catalogue.priceChanges[change].newMicros == last.priceMicros }
            return false
        } && [StoryStep.renew, .recover, .autoRenewOff(system: false), .autoRenewOn].contains(last.step)
        for kind in ProjectionFault.allCases.sorted() {
            let share = options.faultShares[kind] ?? 0
            let hit = rng.chance(share)
            guard hit else { continue }
            switch kind {
            case .missedNotification, .failedWebhook: if lastIsEvent && !lastIsSweep { return kind }
            case .refundNotReflected: if story.isApple && lastIsRevocation { return kind }
            case .voidedPurchaseNotApplied: if lastIsSweep { return kind }
            case .acknowledgementNotRecorded: if googleLive { return kind }
            case .acknowledgementPendingInStore: if !story.isApple && recentPurchase { return kind }
            case .stalePrice: if changed { return kind }
            case .appleNotificationNotStored: if story.isApple && story.steps.count >= 3 { return kind }
            }
        }
        return nil
    }
}
