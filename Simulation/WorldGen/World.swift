import BillingCore
import Crypto
import Dispatch
import Foundation
import StoreTruth

/// Deterministic simulated worlds: store truth, the database as the webhook path left it, a fault manifest.
public enum World {
    /// Generates a world in memory (both cores; each subscription has its own PRNG stream).
    public static func generate(_ options: WorldOptions) throws -> GeneratedWorld {
        let parts = try generateRange(options, 0..<options.subscriptions)
        return assemble(options, parts)
    }

    /// Generates subscriptions `range` (in order), in parallel.
    static func generateRange(_ options: WorldOptions, _ range: Range<Int>) throws -> [WorldSubscription] {
        let generator = makeGenerator(options)
        let box = ResultBox(count: range.count)
        let workers = max(ProcessInfo.processInfo.activeProcessorCount, 1)
        let stride = max((range.count + workers * 8 - 1) / (workers * 8), 1)
        let chunks = (range.count + stride - 1) / stride
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let lower = range.lowerBound + chunk * stride
            for index in lower..<min(lower + stride, range.upperBound) {
                do { box.set(index - range.lowerBound, try generator.generate(index)) } catch { box.fail(error) }
            }
        }
        return try box.results()
    }

    static func makeGenerator(_ options: WorldOptions) -> SubscriptionGenerator {
        let asOfMs = WorldClock.ms(options.asOf)
        let catalogue = WorldCatalogue.standard(seed: options.seed, asOfMs: asOfMs, months: options.months)
        let builder = StoryBuilder(options: options, catalogue: catalogue, asOfMs: asOfMs,
                                   windowStartMs: WorldClock.addMonths(asOfMs, -Int64(options.months)))
        return SubscriptionGenerator(options: options, catalogue: catalogue, ids: WorldIdentifiers(seed: options.seed),
                                     asOfMs: asOfMs, mappings: mappings(catalogue), builder: builder)
    }

    /// The store product mappings keyed `PROVIDER|product|basePlan|offer`.
    static func mappings(_ catalogue: WorldCatalogue) -> [String: ResolvedPlan] {
        var result: [String: ResolvedPlan] = [:]
        for plan in catalogue.plans {
            let unit = IntervalUnit(rawValue: plan.intervalUnit) ?? .monthly
            let period = BillingPeriod(iso: plan.billingPeriod)
            result["APPLE|\(plan.appleProductId)||"] = ResolvedPlan(planId: plan.id, provider: .apple, productId: plan.appleProductId,
                                                                    intervalUnit: unit, billingPeriod: period)
            result["GOOGLE|\(plan.googleProductId)|\(plan.googleBasePlanId)|"] = ResolvedPlan(
                planId: plan.id, provider: .google, productId: plan.googleProductId, basePlanId: plan.googleBasePlanId, intervalUnit: unit,
                billingPeriod: period)
            if let offer = plan.googleTrialOfferId {
                result["GOOGLE|\(plan.googleProductId)|\(plan.googleBasePlanId)|\(offer)"] = ResolvedPlan(
                    planId: plan.id, provider: .google, productId: plan.googleProductId, basePlanId: plan.googleBasePlanId,
                    offerId: offer, intervalUnit: unit, billingPeriod: period)
            }
        }
        return result
    }

    static func assemble(_ options: WorldOptions, _ subscriptions: [WorldSubscription]) -> GeneratedWorld {
        let generator = makeGenerator(options)
        let catalogue = generator.catalogue
        var notifications: [(Int64, Int, Int, AppleNotificationTruth)] = []
        for subscription in subscriptions {
            for (position, notification) in subscription.appleNotifications.enumerated() {
                notifications.append((notification.payload["signedDate"]?.int64Value ?? 0, subscription.index, position, notification))
            }
        }
        notifications.sort { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        let voided = sortedVoided(subscriptions.flatMap(\.googleVoided))
        let truth = StoreTruth(
            apple: AppleTruth(bundleId: catalogue.bundleId, appAppleId: catalogue.appAppleId, environment: "Production",
                              subscriptions: subscriptions.compactMap(\.apple), notifications: notifications.map(\.3)),
            google: GoogleTruth(packageName: catalogue.packageName, subscriptions: subscriptions.flatMap(\.googleTokens),
                                voidedPurchases: voided))
        let manifest = Self.manifest(options, counts: counts(subscriptions, truth), faults: subscriptions.flatMap(\.faults))
        return GeneratedWorld(options: options, catalogue: catalogue, truth: truth, manifest: manifest, subscriptions: subscriptions)
    }

    /// The manifest of a world with these counts and faults (report discrepancies added by the writer).
    static func manifest(_ options: WorldOptions, counts: [String: Int], faults: [InjectedFault]) -> WorldManifest {
        WorldManifest(
            seed: options.seed, subscriptions: options.subscriptions, months: options.months,
            asOf: WorldClock.rfc3339(WorldClock.ms(options.asOf)), appleShare: options.appleShare, testShare: options.testShare,
            faultShares: Dictionary(uniqueKeysWithValues: options.faultShares.map { ($0.key.rawValue, $0.value) }),
            counts: counts, faults: faults)
    }

    /// Voided purchases in truth order: by voidedTimeMillis, then orderId.
    static func sortedVoided(_ voided: [JSONValue]) -> [JSONValue] {
        func key(_ item: JSONValue) -> (String, String) {
            (item["voidedTimeMillis"]?.stringValue ?? "", item["orderId"]?.stringValue ?? "")
        }
        return voided.sorted { key($0) < key($1) }
    }

    static func counts(_ subscriptions: [WorldSubscription], _ truth: StoreTruth) -> [String: Int] {
        [
            "subscription": subscriptions.count,
            "billing_transaction": subscriptions.reduce(0) { $0 + $1.rows.transactions.count },
            "inbound_webhook_event": subscriptions.reduce(0) { $0 + $1.rows.inbound.count },
            "subscription_price_change": subscriptions.reduce(0) { $0 + $1.rows.priceChanges.count },
            "apple_subscriptions": truth.apple.subscriptions.count,
            "apple_notifications": truth.apple.notifications.count,
            "google_tokens": truth.google.subscriptions.count,
            "google_voided": truth.google.voidedPurchases.count,
        ]
    }
}

/// Collects parallel results by position.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [WorldSubscription?]
    private var error: Error?

    init(count: Int) { items = Array(repeating: nil, count: count) }

    func set(_ position: Int, _ item: WorldSubscription) { lock.lock(); items[position] = item; lock.unlock() }
    func fail(_ failure: Error) { lock.lock(); if error == nil { error = failure }; lock.unlock() }
    func results() throws -> [WorldSubscription] {
        if let error { throw error }
        return items.compactMap { $0 }
    }
}
