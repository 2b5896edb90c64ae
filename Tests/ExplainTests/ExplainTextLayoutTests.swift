import Explain
import Foundation
import Testing

/// explain's text form on the story of `ExplainTimelineTests`, read the way support reads it: every line fits 100
/// columns, amounts in the currency's own digits, grace rows charge nothing, store reason codes named; and the JSON
/// form is exactly what it was before the text form changed (machine readers depend on it).
@Suite(.serialized) struct ExplainTextLayoutTests {
    func build(raw: Bool, asOf: Date = ExplainWorld.at(200)) throws -> Timeline {
        _ = try ExplainTimelineTests.story.get()
        let db = try ExplainTimelineTests.world.get().connect()
        defer { db.close() }
        return try Timeline.build(identifier: ExplainTimelineTests.original, asOf: asOf, rawOwnIdentifiers: raw, database: db)
    }

    /// The lines of the entry whose head line starts at `at` and names `event` and `source` (on the head line or in
    /// its details): the head and its indented continuation lines.
    func block(_ output: String, event: String, at: String = "2026-", source: String = "billing_transaction") -> [String] {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in lines.enumerated() where line.hasPrefix(at) && (line.contains(" \(event) ") || line.hasSuffix(" \(event)")) {
            let found = [line] + lines[(index + 1)...].prefix { $0.hasPrefix(" ") }
            if found.joined(separator: " ").contains(source) { return found }
        }
        return []
    }

    @Test(arguments: [false, true]) func everyTextLineFitsIn100Columns(raw: Bool) throws {
        let output = TimelineText.render(try build(raw: raw))
        let long = output.split(separator: "\n").filter { $0.count > 100 }.map(String.init)
        let longCount = long.count
        #expect(longCount == 0, "lines over 100 columns:\n\(long.joined(separator: "\n"))")
        // Nothing of the JSON form is lost: every detail value of every entry appears in the text.
        for entry in try build(raw: raw).entries {
            let text = block(output, event: entry.event, at: ExplainFormat.instant(entry.at), source: entry.source).joined(separator: " ")
            #expect(!text.isEmpty, "no block for \(entry.event)")
            for (name, _) in entry.details { #expect(text.contains(name + "="), "\(entry.event) lost \(name)") }
        }
    }

    @Test func amountsUseTheCurrencysDigitsAndGraceChargesNothing() throws {
        let output = TimelineText.render(try build(raw: false))
        #expect(!output.contains(".000000") && !output.contains("0000 USD"), "six-decimal amounts left:\n\(output)")
        #expect(block(output, event: "RENEWED").first?.contains(" 9.99 USD") == true)
        #expect(block(output, event: "REFUNDED").first?.contains(" -12.99 USD") == true)
        #expect(output.contains("old_price=9.99 USD"))
        let grace = block(output, event: "ENTERED_GRACE_PERIOD")
        #expect(grace.first.map { !$0.contains("USD") } == true, "the grace row's head shows a charge: \(grace)")
        #expect(grace.joined(separator: " ").contains("retrying=9.99 USD"), "grace row: \(grace)")
    }

    @Test func storeReasonCodesAreNamedWithTheirCode() throws {
        let refund = block(TimelineText.render(try build(raw: false)), event: "REFUNDED").joined(separator: " ")
        #expect(refund.contains("revocation_reason=other (0)"), "refund: \(refund)")
    }

    /// Random identifiers of the story (masked `abcd…wxyz`, or raw digits) as fixed placeholders.
    static func normalized(_ json: String) -> String {
        var text = json.replacingOccurrences(of: "[^\\s\"=/:{},]{4}…[^\\s\"=/:{},]{4}", with: "MASK", options: .regularExpression)
        text = text.replacingOccurrences(of: "PRO_MONTHLY_[0-9A-F-]{36}", with: "PRO_MONTHLY_X", options: .regularExpression)
        text = text.replacingOccurrences(of: "\"last_verified_at\":\"[^\"]*\"", with: "\"last_verified_at\":\"T\"", options: .regularExpression)
        return text
    }

    @Test func theJSONFormIsUnchanged() throws {
        let json = Self.normalized(TimelineJSON.render(try build(raw: false)))
        #expect(json == Self.jsonBefore, "JSON changed:\n\(json)")
    }

    /// `explain --json` on the story, captured from the code before the text form changed (commit d066543; identifiers
    /// and the world's random plan suffix normalized), one timeline entry per source line.
    static let jsonBefore = #"""
{"as_of":"2026-07-20T00:00:00Z","subscription":{"subscription":"MASK","provider":"APPLE","status":"REVOKED","acknowledgement":"NOT_REQUIRED","plan":"PRO_MONTHLY_X","product":"com.example.fitness.pro.monthly","price":"12.990000 USD","period":"2026-03-12T00:00:00Z → 2026-04-11T00:00:00Z","trial_ends_at":"2026-01-08T00:00:00Z","auto_renew":"yes","cancel_at":"","last_verified_at":"T","test_purchase":"no","sandbox":"no","original_transaction_id":"MASK","latest_transaction_id":"MASK"},"timeline":[\#
{"at":"2026-01-01T00:00:00Z","recorded_at":"2026-01-01T00:30:00Z","source":"billing_transaction","event":"PURCHASED","amount_micros":0,"currency":"USD","amount":"0.000000 USD","details":{"key":"APPLE:MASK:MASK","product":"com.example.fitness.pro.monthly","billing_period":"P1M","paid_period":"2026-01-01T00:00:00Z → 2026-01-08T00:00:00Z","expires_at":"2026-01-08T00:00:00Z","country":"USA"}},\#
{"at":"2026-01-01T00:00:00Z","recorded_at":"2026-01-01T00:30:00Z","source":"entitlement_interval","event":"ENTITLEMENT_GRANTED","amount_micros":null,"currency":null,"amount":null,"details":{"plan":"PRO_MONTHLY_X","valid_until":"2026-01-08T00:00:00Z"}},\#
{"at":"2026-01-01T00:30:00Z","recorded_at":"2026-01-01T00:30:00Z","source":"inbound_webhook_event","event":"APPLE SUBSCRIBED·INITIAL_BUY","amount_micros":null,"currency":null,"amount":null,"details":{"event_id":"MASK","processed_at":"2026-01-01T00:30:00Z","attempts":"1","environment":"PRODUCTION","verified":"yes"}},\#
{"at":"2026-01-08T00:00:00Z","recorded_at":"2026-01-08T00:30:00Z","source":"billing_transaction","event":"RENEWED","amount_micros":9990000,"currency":"USD","amount":"9.990000 USD","details":{"key":"APPLE:MASK:MASK","product":"com.example.fitness.pro.monthly","billing_period":"P1M","paid_period":"2026-01-08T00:00:00Z → 2026-02-07T00:00:00Z","expires_at":"2026-02-07T00:00:00Z","country":"USA"}},\#
{"at":"2026-01-08T00:00:00Z","recorded_at":"2026-01-08T00:30:00Z","source":"entitlement_interval","event":"ENTITLEMENT_GRANTED","amount_micros":null,"currency":null,"amount":null,"details":{"plan":"PRO_MONTHLY_X","valid_until":"2026-02-23T00:00:00Z"}},\#
{"at":"2026-01-08T00:30:00Z","recorded_at":"2026-01-08T00:30:00Z","source":"inbound_webhook_event","event":"APPLE DID_RENEW","amount_micros":null,"currency":null,"amount":null,"details":{"event_id":"MASK","processed_at":"2026-01-08T00:30:00Z","attempts":"1","environment":"PRODUCTION","verified":"yes"}},\#
{"at":"2026-02-07T00:00:00Z","recorded_at":"2026-02-07T00:30:00Z","source":"billing_transaction","event":"ENTERED_GRACE_PERIOD","amount_micros":9990000,"currency":"USD","amount":"9.990000 USD","details":{"key":"APPLE:MASK:MASK:ENTERED_GRACE_PERIOD","expires_at":"2026-02-23T00:00:00Z","country":"USA"}},\#
{"at":"2026-02-07T00:30:00Z","recorded_at":"2026-02-07T00:30:00Z","source":"inbound_webhook_event","event":"APPLE DID_FAIL_TO_RENEW·GRACE_PERIOD","amount_micros":null,"currency":null,"amount":null,"details":{"event_id":"MASK","processed_at":"2026-02-07T00:30:00Z","attempts":"1","environment":"PRODUCTION","verified":"yes"}},\#
{"at":"2026-02-10T00:00:00Z","recorded_at":"2026-02-10T00:30:00Z","source":"billing_transaction","event":"RECOVERED","amount_micros":9990000,"currency":"USD","amount":"9.990000 USD","details":{"key":"APPLE:MASK:MASK","product":"com.example.fitness.pro.monthly","billing_period":"P1M","paid_period":"2026-02-10T00:00:00Z → 2026-03-12T00:00:00Z","expires_at":"2026-03-12T00:00:00Z","country":"USA"}},\#
{"at":"2026-02-10T00:00:00Z","recorded_at":"2026-02-10T00:30:00Z","source":"entitlement_interval","event":"ENTITLEMENT_GRANTED","amount_micros":null,"currency":null,"amount":null,"details":{"plan":"PRO_MONTHLY_X","valid_until":"2026-03-12T00:00:00Z"}},\#
{"at":"2026-02-10T00:30:00Z","recorded_at":null,"source":"entitlement_interval","event":"ENTITLEMENT_ENDED","amount_micros":null,"currency":null,"amount":null,"details":{"plan":"PRO_MONTHLY_X"}},\#
{"at":"2026-02-10T00:30:00Z","recorded_at":"2026-02-10T00:30:00Z","source":"inbound_webhook_event","event":"APPLE DID_RENEW·BILLING_RECOVERY","amount_micros":null,"currency":null,"amount":null,"details":{"event_id":"MASK","processed_at":"2026-02-10T00:30:00Z","attempts":"1","environment":"PRODUCTION","verified":"yes"}},\#
{"at":"2026-02-20T00:00:00Z","recorded_at":"2026-02-20T00:30:00Z","source":"billing_transaction","event":"PRICE_CHANGE_PENDING","amount_micros":12990000,"currency":"USD","amount":"12.990000 USD","details":{"key":"APPLE:MASK:MASK:PRICE_CHANGE_PENDING:USD:12990000","expires_at":"2026-03-12T00:00:00Z","country":"USA"}},\#
{"at":"2026-02-20T00:00:00Z","recorded_at":"2026-02-20T00:30:00Z","source":"subscription_price_change","event":"PRICE_CHANGE_PENDING","amount_micros":12990000,"currency":"USD","amount":"12.990000 USD","details":{"mode":"PRICE_INCREASE","old_price":"9.990000 USD","new_price":"12.990000 USD","expected_charge_at":"2026-03-12T00:00:00Z","product":"com.example.fitness.pro.monthly","region":"USA"}},\#
{"at":"2026-02-20T00:30:00Z","recorded_at":"2026-02-20T00:30:00Z","source":"inbound_webhook_event","event":"APPLE PRICE_INCREASE·PENDING","amount_micros":null,"currency":null,"amount":null,"details":{"event_id":"MASK","processed_at":"2026-02-20T00:30:00Z","attempts":"1","environment":"PRODUCTION","verified":"yes"}},\#
{"at":"2026-02-25T00:00:00Z","recorded_at":"2026-02-25T00:30:00Z","source":"billing_transaction","event":"PRICE_CHANGE_ACCEPTED","amount_micros":12990000,"currency":"USD","amount":"12.990000 USD","details":{"key":"APPLE:MASK:MASK:PRICE_CHANGE_ACCEPTED:USD:12990000","expires_at":"2026-03-12T00:00:00Z","country":"USA"}},\#
{"at":"2026-02-25T00:00:00Z","recorded_at":"2026-02-25T00:30:00Z","source":"subscription_price_change","event":"PRICE_CHANGE_ACCEPTED","amount_micros":12990000,"currency":"USD","amount":"12.990000 USD","details":{"mode":"PRICE_INCREASE","old_price":"9.990000 USD","new_price":"12.990000 USD","expected_charge_at":"2026-03-12T00:00:00Z","product":"com.example.fitness.pro.monthly","region":"USA"}},\#
{"at":"2026-02-25T00:30:00Z","recorded_at":"2026-02-25T00:30:00Z","source":"inbound_webhook_event","event":"APPLE PRICE_INCREASE·ACCEPTED","amount_micros":null,"currency":null,"amount":null,"details":{"event_id":"MASK","processed_at":"2026-02-25T00:30:00Z","attempts":"1","environment":"PRODUCTION","verified":"yes"}},\#
{"at":"2026-03-12T00:00:00Z","recorded_at":"2026-03-12T00:30:00Z","source":"billing_transaction","event":"RENEWED","amount_micros":12990000,"currency":"USD","amount":"12.990000 USD","details":{"key":"APPLE:MASK:MASK","product":"com.example.fitness.pro.monthly","billing_period":"P1M","paid_period":"2026-03-12T00:00:00Z → 2026-04-11T00:00:00Z","expires_at":"2026-04-11T00:00:00Z","country":"USA"}},\#
{"at":"2026-03-12T00:00:00Z","recorded_at":"2026-03-12T00:30:00Z","source":"billing_transaction","event":"PRICE_CHANGED","amount_micros":12990000,"currency":"USD","amount":"12.990000 USD","details":{"key":"APPLE:MASK:MASK:PRICE_CHANGED","expires_at":"2026-04-11T00:00:00Z","country":"USA"}},\#
{"at":"2026-03-12T00:00:00Z","recorded_at":"2026-03-12T00:30:00Z","source":"subscription_price_change","event":"PRICE_CHANGE_APPLIED","amount_micros":12990000,"currency":"USD","amount":"12.990000 USD","details":{"mode":"PRICE_INCREASE","old_price":"9.990000 USD","new_price":"12.990000 USD","expected_charge_at":"2026-03-12T00:00:00Z","product":"com.example.fitness.pro.monthly","region":"USA"}},\#
{"at":"2026-03-12T00:00:00Z","recorded_at":"2026-03-12T00:30:00Z","source":"entitlement_interval","event":"ENTITLEMENT_GRANTED","amount_micros":null,"currency":null,"amount":null,"details":{"plan":"PRO_MONTHLY_X","valid_until":"2026-04-11T00:00:00Z"}},\#
{"at":"2026-03-12T00:30:00Z","recorded_at":"2026-03-12T00:30:00Z","source":"inbound_webhook_event","event":"APPLE DID_RENEW","amount_micros":null,"currency":null,"amount":null,"details":{"event_id":"MASK","processed_at":"2026-03-12T00:30:00Z","attempts":"1","environment":"PRODUCTION","verified":"yes"}},\#
{"at":"2026-03-16T00:00:00Z","recorded_at":"2026-03-17T00:30:00Z","source":"billing_transaction","event":"REFUNDED","amount_micros":-12990000,"currency":"USD","amount":"-12.990000 USD","details":{"key":"APPLE:MASK:MASK:REFUNDED","expires_at":"2026-04-11T00:00:00Z","refund_kind":"REFUND","refunds":"APPLE:MASK:MASK","reason":"REFUND","revocation_reason":"0","country":"USA"}},\#
{"at":"2026-03-16T00:00:00Z","recorded_at":null,"source":"entitlement_interval","event":"ENTITLEMENT_ENDED","amount_micros":null,"currency":null,"amount":null,"details":{"plan":"PRO_MONTHLY_X"}},\#
{"at":"2026-03-17T00:30:00Z","recorded_at":"2026-03-17T00:30:00Z","source":"inbound_webhook_event","event":"APPLE REFUND","amount_micros":null,"currency":null,"amount":null,"details":{"event_id":"MASK","processed_at":"2026-03-17T00:30:00Z","attempts":"1","environment":"PRODUCTION","verified":"yes"}},\#
{"at":"2026-03-18T00:00:00Z","recorded_at":"2026-03-18T00:00:00Z","source":"store_query","event":"STORE_QUERY_OK","amount_micros":null,"currency":null,"amount":null,"details":{"endpoint":"/inApps/v1/subscriptions/MASK","http_status":"200","latency_ms":"87"}},\#
{"at":"2026-03-18T00:00:00Z","recorded_at":"2026-03-18T00:00:00Z","source":"drift_event","event":"DRIFT_STATUS","amount_micros":null,"currency":null,"amount":null,"details":{"field":"status","database":"ACTIVE","store":"REVOKED","repaired":"yes"}}]}
"""#
}
