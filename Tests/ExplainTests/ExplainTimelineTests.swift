import BillingCore
import Explain
import Foundation
import JobKit
import Postgres
import ProjectionStore
import Testing

/// explain on a subscription projected through the real writer: trial, grace, billing recovery, an accepted price
/// increase charged at renewal, and a refund; each step with its date and exact amount, in order, and nothing of
/// another subscription on the same account.
@Suite(.serialized) struct ExplainTimelineTests {
    static let world: Result<ExplainWorld, any Error> = Result { try ExplainWorld.make("test_explain_timeline") }
    static let original = "2000\(Int.random(in: 100_000_000...999_999_999))"
    static let other = "2000\(Int.random(in: 100_000_000...999_999_999))"

    /// The story, projected once per suite; returns the subscription ids of the story and of the other subscription.
    static let story: Result<(String, String), any Error> = Result {
        let world = try Self.world.get()
        let db = try world.connect()
        defer { db.close() }
        typealias Step = ExplainWorld.Step
        let o = original
        let steps = [
            Step(type: "SUBSCRIBED", subtype: "INITIAL_BUY", transaction: o, signedDay: 0, purchaseDay: 0, expiresDay: 7, priceMilli: 0,
                 freeTrial: true),
            Step(type: "DID_RENEW", transaction: o + "1", signedDay: 7, purchaseDay: 7, expiresDay: 37, priceMilli: 9990),
            Step(type: "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", transaction: o + "1", signedDay: 37, purchaseDay: 7, expiresDay: 37,
                 priceMilli: 9990, graceUntilDay: 53),
            Step(type: "DID_RENEW", subtype: "BILLING_RECOVERY", transaction: o + "2", signedDay: 40, purchaseDay: 40, expiresDay: 70,
                 priceMilli: 9990),
            Step(type: "PRICE_INCREASE", subtype: "PENDING", transaction: o + "2", signedDay: 50, purchaseDay: 40, expiresDay: 70,
                 priceMilli: 9990, renewalPriceMilli: 12990, priceIncreaseStatus: 0),
            Step(type: "PRICE_INCREASE", subtype: "ACCEPTED", transaction: o + "2", signedDay: 55, purchaseDay: 40, expiresDay: 70,
                 priceMilli: 9990, renewalPriceMilli: 12990, priceIncreaseStatus: 1),
            Step(type: "DID_RENEW", transaction: o + "3", signedDay: 70, purchaseDay: 70, expiresDay: 100, priceMilli: 12990),
            Step(type: "REFUND", transaction: o + "3", signedDay: 75, purchaseDay: 70, expiresDay: 100, priceMilli: 12990, revokedDay: 74),
        ]
        var id = ""
        for step in steps { id = try world.project(step, original: o, db: db).subscriptionId }
        // Another subscription of the same account, bought after the refund.
        let otherID = try world.project(Step(type: "SUBSCRIBED", subtype: "INITIAL_BUY", transaction: other, signedDay: 80, purchaseDay: 80,
                                             expiresDay: 110, priceMilli: 12990), original: other, db: db).subscriptionId
        // What the pipeline did: a store query and a drift finding about the story's subscription.
        try db.execute("""
            INSERT INTO store_query (subscription_id, provider, endpoint, outcome, http_status, latency_ms, attempted_at)
            VALUES ($1::uuid, 'APPLE', $2, 'ok', 200, 87, $3)
            """, [id, "/inApps/v1/subscriptions/\(o)", ExplainWorld.at(76)])
        try db.execute("""
            INSERT INTO drift_event (subscription_id, kind, field, database_value, store_value, detected_at, repaired)
            VALUES ($1::uuid, 'status', 'status', 'ACTIVE', 'REVOKED', $2, true)
            """, [id, ExplainWorld.at(76)])
        return (id, otherID)
    }

    /// The text lines of explain for `identifier` as of `asOf`.
    func text(_ identifier: String, asOf: Date = ExplainWorld.at(200), raw: Bool = false) throws -> String {
        let db = try Self.world.get().connect()
        defer { db.close() }
        return TimelineText.render(try Timeline.build(identifier: identifier, asOf: asOf, rawOwnIdentifiers: raw, database: db))
    }

    /// Asserts each expected step is an entry (its head line and indented continuation lines) holding all its parts,
    /// in the given order.
    func expectInOrder(_ output: String, _ steps: [[String]], sourceLocation: SourceLocation = #_sourceLocation) {
        var lines: [String] = []
        for line in output.split(separator: "\n").map(String.init) {
            if line.hasPrefix(" "), !lines.isEmpty { lines[lines.count - 1] += " " + line.trimmingCharacters(in: .whitespaces) } else { lines.append(line) }
        }
        var next = 0
        for step in steps {
            guard let found = lines[next...].firstIndex(where: { line in step.allSatisfy { line.contains($0) } }) else {
                Issue.record("no line with \(step) after line \(next):\n\(output)", sourceLocation: sourceLocation)
                return
            }
            next = found + 1
        }
    }

    @Test func everyStepAppearsInOrderWithItsDateAndAmount() throws {
        let (id, _) = try Self.story.get()
        let output = try text(Self.original)
        expectInOrder(output, [
            ["2026-01-01T00:00:00Z", "billing_transaction", "PURCHASED", "0.00 USD"],
            ["2026-01-01T00:00:00Z", "ENTITLEMENT_GRANTED"],
            ["2026-01-08T00:00:00Z", "billing_transaction", "RENEWED", "9.99 USD"],
            ["2026-02-07T00:00:00Z", "billing_transaction", "ENTERED_GRACE_PERIOD", "retrying=9.99 USD"],
            ["2026-02-10T00:00:00Z", "billing_transaction", "RECOVERED", "9.99 USD"],
            ["2026-02-20T00:00:00Z", "subscription_price_change", "PRICE_CHANGE_PENDING", "12.99 USD", "old_price=9.99 USD"],
            ["2026-02-25T00:00:00Z", "subscription_price_change", "PRICE_CHANGE_ACCEPTED", "12.99 USD"],
            ["2026-03-12T00:00:00Z", "billing_transaction", "RENEWED", "12.99 USD"],
            ["2026-03-12T00:00:00Z", "subscription_price_change", "PRICE_CHANGE_APPLIED"],
            ["2026-03-16T00:00:00Z", "billing_transaction", "REFUNDED", "-12.99 USD", "refund_kind=REFUND"],
            ["2026-03-16T00:00:00Z", "ENTITLEMENT_ENDED"],
            ["2026-03-17T00:30:00Z", "inbound_webhook_event", "APPLE REFUND"],
            ["2026-03-18T00:00:00Z", "store_query", "STORE_QUERY_OK", "http_status=200"],
            ["2026-03-18T00:00:00Z", "drift_event", "DRIFT_STATUS", "database=ACTIVE", "store=REVOKED"],
        ])
        // The grace notification arrived and was processed; the header says where the subscription stands now.
        #expect(output.contains("APPLE DID_FAIL_TO_RENEW·GRACE_PERIOD"))
        #expect(output.contains("APPLE DID_RENEW·BILLING_RECOVERY"))
        #expect(output.contains("status:") && output.contains("REVOKED"))
        // Own identifiers masked by default, shown with --raw-ids.
        #expect(!output.contains(Self.original) && !output.contains(id))
        let raw = try text(Self.original, raw: true)
        #expect(raw.contains(Self.original) && raw.contains(id))
    }

    @Test func anotherSubscriptionsIdentifiersNeverAppear() throws {
        let (id, otherID) = try Self.story.get()
        for identifier in [Self.original, id, Self.original + "3"] {
            for raw in [false, true] {
                let output = try text(identifier, raw: raw)
                #expect(!output.contains(Self.other), "other originalTransactionId in explain \(identifier) raw=\(raw)")
                #expect(!output.contains(otherID), "other subscription id in explain \(identifier) raw=\(raw)")
                #expect(output.contains("PURCHASED"))
            }
        }
        // And the other subscription's timeline is its own.
        let other = try text(Self.other, raw: true)
        #expect(other.contains(Self.other) && !other.contains(Self.original) && !other.contains(id))
    }

    @Test func rowsRecordedAfterTheAsOfInstantAreLeftOut() throws {
        _ = try Self.story.get()
        let output = try text(Self.original, asOf: ExplainWorld.at(60))
        #expect(output.contains("RECOVERED") && output.contains("PRICE_CHANGE_ACCEPTED"))
        #expect(!output.contains("REFUNDED") && !output.contains("PRICE_CHANGE_APPLIED"))
        let charges = output.split(separator: "\n").filter { $0.contains("billing_transaction") && $0.contains(" RENEWED ") }
        #expect(charges.count == 1 && charges.allSatisfy { $0.contains("9.99 USD") }, "only the January renewal: \(charges)")
        #expect(!output.contains("APPLE REFUND") && !output.contains("STORE_QUERY") && !output.contains("DRIFT_"))
        #expect(output.contains("as of: 2026-03-02T00:00:00Z"))
    }

    @Test func jsonIsOneDocumentWithExactMicros() throws {
        let (_, _) = try Self.story.get()
        let db = try Self.world.get().connect()
        defer { db.close() }
        let json = TimelineJSON.render(try Timeline.build(identifier: Self.original, asOf: ExplainWorld.at(200), rawOwnIdentifiers: false, database: db))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let timeline = try #require(document["timeline"] as? [[String: Any]])
        let refund = try #require(timeline.first { $0["event"] as? String == "REFUNDED" })
        #expect(refund["amount_micros"] as? Int64 == -12_990_000 || (refund["amount_micros"] as? NSNumber)?.int64Value == -12_990_000)
        #expect(refund["amount"] as? String == "-12.990000 USD")
        #expect(refund["at"] as? String == "2026-03-16T00:00:00Z")
        #expect((document["subscription"] as? [String: String])?["status"] == "REVOKED")
        let events = timeline.compactMap { $0["event"] as? String }
        #expect(events.firstIndex(of: "PURCHASED") ?? 99 < events.firstIndex(of: "REFUNDED") ?? -1)
        #expect(!json.contains(Self.original) && !json.contains(Self.other))
    }

    @Test func anUnknownIdentifierIsAUsageErrorNamingWhatWasSearched() throws {
        _ = try Self.story.get()
        let db = try Self.world.get().connect()
        defer { db.close() }
        do {
            _ = try Timeline.build(identifier: "GPA.0000-0000-0000-00000", asOf: ExplainWorld.at(200), rawOwnIdentifiers: true, database: db)
            Issue.record("an unknown identifier must not build a timeline")
        } catch let error as JobError {
            #expect(error.exitCode == .usageOrConfiguration)
            #expect(error.description.contains("no subscription matches 'GPA.0000-0000-0000-00000'"))
            #expect(error.description.contains("google_purchase_token.purchase_token") && error.description.contains("billing_transaction.order_id"))
        }
    }
}
