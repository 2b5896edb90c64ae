import Foundation
import Testing
@testable import BillingCore

@Suite("Money, timestamps and payload decoding")
struct DecodingTests {
    @Test("Apple milliunits convert exactly to micros")
    func appleMoney() throws {
        #expect(try Money(appleMilliunits: 9_990, currencyCode: "USD").micros == 9_990_000)
        #expect(throws: MoneyError.self) { try Money(appleMilliunits: .max, currencyCode: "USD") }
    }

    @Test("Google units + nanos convert exactly; inexact or inconsistent values throw")
    func googleMoney() throws {
        #expect(try Money(googleUnits: "9", nanos: 990_000_000, currencyCode: "USD").micros == 9_990_000)
        #expect(try Money(googleUnits: "-1", nanos: -750_000_000, currencyCode: "USD").micros == -1_750_000)
        #expect(try Money(googleUnits: "14000", nanos: nil, currencyCode: "KRW").micros == 14_000_000_000)
        #expect(throws: MoneyError.inexactNanos(1)) { try Money(googleUnits: "1", nanos: 1, currencyCode: "USD") }
        #expect(throws: MoneyError.invalidUnits("1.5")) { try Money(googleUnits: "1.5", nanos: 0, currencyCode: "USD") }
        #expect(throws: MoneyError.signMismatch(units: "1", nanos: -5_000)) { try Money(googleUnits: "1", nanos: -5_000, currencyCode: "USD") }
        #expect(throws: MoneyError.self) { try Money(googleUnits: "9223372036854775807", nanos: 0, currencyCode: "USD") }
        let decoded = try JSONDecoder().decode(GoogleMoney.self, from: Data(#"{"currencyCode":"EUR","units":12,"nanos":"500000000"}"#.utf8))
        #expect(try decoded.money() == Money(micros: 12_500_000, currencyCode: "EUR"))
        #expect(Money(micros: -1_750_000, currencyCode: "USD").description == "-1.750000 USD")
    }

    @Test("RFC 3339 with 0–9 fractional digits and offsets parses exactly", arguments: [
        ("2025-03-01T09:00:00Z", Int64(1_740_819_600), Int32(0)),
        ("2025-03-01T09:00:00.4Z", 1_740_819_600, 400_000_000),
        ("2025-03-01T09:00:00.123456789Z", 1_740_819_600, 123_456_789),
        ("2025-03-01T18:00:00.5+09:00", 1_740_819_600, 500_000_000),
        ("2024-02-29T23:59:59-00:30", 1_709_252_999, 0),
        ("1969-12-31T23:59:59.999999999Z", -1, 999_999_999),
    ])
    func rfc3339(_ text: String, _ seconds: Int64, _ nanos: Int32) throws {
        let stamp = try RFC3339Timestamp(text)
        #expect(stamp.seconds == seconds && stamp.nanos == nanos)
        #expect(try RFC3339Timestamp(stamp.canonical) == stamp)
    }

    @Test("Malformed RFC 3339 is rejected", arguments: [
        "2025-03-01 09:00:00Z", "2025-02-29T00:00:00Z", "2025-03-01T09:00:00", "2025-03-01T09:00:00.Z",
        "2025-03-01T09:00:00.1234567890Z", "2025-03-01T24:00:00Z", "2025-03-01T09:00:00Zjunk", "2025-13-01T00:00:00Z",
    ])
    func rfc3339Invalid(_ text: String) {
        #expect(throws: TimestampError.self) { try RFC3339Timestamp(text) }
    }

    @Test("Canonical form trims fraction zeros and normalises the offset")
    func canonical() throws {
        #expect(try RFC3339Timestamp("2025-03-01T18:00:00.500+09:00").canonical == "2025-03-01T09:00:00.5Z")
    }

    @Test("Unknown enum values stay raw instead of failing")
    func unknownEnums() throws {
        let json = #"{"notificationType":"NEW_TYPE","subtype":"NEW_SUB","signedDate":1740819600000.5,"notificationUUID":"u"}"#
        let payload = try JSONDecoder().decode(ResponseBodyV2DecodedPayload.self, from: Data(json.utf8))
        #expect(payload.rawNotificationType == "NEW_TYPE" && payload.notificationTypeValue == nil)
        #expect(payload.signedDate?.milliseconds == 1_740_819_600_000.5)
        let purchase = try JSONDecoder().decode(SubscriptionPurchaseV2.self, from: Data(
            #"{"subscriptionState":"SUBSCRIPTION_STATE_NEW","acknowledgementState":"X","lineItems":[{"offerPhase":{"freeTrial":{}}}],"testPurchase":{}}"#.utf8))
        #expect(purchase.subscriptionStateValue == nil && purchase.rawSubscriptionState == "SUBSCRIPTION_STATE_NEW")
        #expect(purchase.isTestPurchase && purchase.items.first?.isFreeTrial == true)
        let plain = try JSONDecoder().decode(SubscriptionPurchaseV2.self, from: Data(#"{"lineItems":[{"offerPhase":{"basePrice":{}}}]}"#.utf8))
        #expect(!plain.isTestPurchase && plain.items.first?.isFreeTrial == false)
    }

    @Test("RTDN envelope decodes; eventTimeMillis is a string; numbers may be strings")
    func rtdn() throws {
        let loaded = try Fixtures.google("google/03_SUBSCRIPTION_CANCELED.json")
        #expect(loaded.notification.eventTimeMillis == "1742062960000")
        #expect(loaded.notification.subscriptionNotification?.notificationTypeValue == .canceled)
        let voided = try JSONDecoder().decode(VoidedPurchase.self, from: Data(
            #"{"purchaseToken":"t","orderId":"o","purchaseTimeMillis":"1700000000000","voidedTimeMillis":1700000001000,"voidedSource":"1","voidedReason":"7"}"#.utf8))
        #expect(voided.purchaseTimeMillis == 1_700_000_000_000 && voided.voidedTimeMillis == 1_700_000_001_000)
        #expect(voided.voidedSource == 1 && voided.isChargeback)
        let bad = PubSubMessage(data: "%%%", messageId: "1", publishTime: nil, attributes: nil)
        #expect(throws: StorePayloadError.invalidBase64(field: "message.data")) { try bad.decodedNotification() }
    }

    @Test("A status entry decodes with its JWS parts already decoded")
    func statusEntry() throws {
        let fixture = try Fixtures.appleFixture("apple/requery/STATUS_GRACE.json")
        let entry = try #require(fixture.statusEntry)
        #expect(entry.statusValue == .billingGracePeriod)
        #expect(entry.renewalInfo?.gracePeriodExpiresDate?.date == Date(timeIntervalSince1970: 1_743_760_800))
    }
}
