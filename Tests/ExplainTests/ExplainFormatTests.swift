import Explain
import Testing

/// The pieces of explain's text form on their own: amounts in the currency's ISO 4217 digits (never rounded) and the
/// stores' reason codes by name, with the raw code kept.
struct ExplainFormatTests {
    @Test(arguments: [
        (Int64(450_000_000), "JPY", "450 JPY"),
        (-450_000_000, "JPY", "-450 JPY"),
        (9_990_000, "USD", "9.99 USD"),
        (-9_990_000, "USD", "-9.99 USD"),
        (0, "USD", "0.00 USD"),
        (-500_000, "USD", "-0.50 USD"),
        (1_234_000, "KWD", "1.234 KWD"),
        (30_000_000, "BHD", "30.000 BHD"),
        // More precise than the currency: every digit shown, nothing rounded away.
        (450_500_000, "JPY", "450.5 JPY"),
        (9_995_000, "USD", "9.995 USD"),
        (1_000_001, "USD", "1.000001 USD"),
        (1_234_500, "KWD", "1.2345 KWD"),
    ] as [(Int64, String, String)])
    func amountsUseTheCurrencysMinorDigits(micros: Int64, currency: String, shown: String) {
        #expect(ExplainFormat.amount(micros, currency) == shown)
    }

    @Test func anAmountWithoutCurrencyOrMicrosIsExactOrEmpty() {
        #expect(ExplainFormat.amount(nil, "USD") == "")
        #expect(ExplainFormat.amount(1_500_000, nil) == "1.5")
    }

    @Test(arguments: [
        (StoreReasonCode.appleRevocationReason, Int64(0), "other (0)"),
        (.appleRevocationReason, 1, "app issue (1)"),
        (.appleRevocationReason, 17, "unknown (17)"),
        (.appleExpirationIntent, 1, "customer cancelled (1)"),
        (.appleExpirationIntent, 2, "billing error (2)"),
        (.appleExpirationIntent, 3, "did not consent to price increase (3)"),
        (.appleExpirationIntent, 4, "product unavailable (4)"),
        (.appleExpirationIntent, 5, "other (5)"),
        (.appleExpirationIntent, 0, "unknown (0)"),
        (.googleVoidedSource, 0, "user (0)"),
        (.googleVoidedSource, 1, "developer (1)"),
        (.googleVoidedSource, 2, "Google (2)"),
        (.googleVoidedSource, 3, "unknown (3)"),
        (.googleVoidedReason, 0, "other (0)"),
        (.googleVoidedReason, 1, "remorse (1)"),
        (.googleVoidedReason, 2, "not received (2)"),
        (.googleVoidedReason, 3, "defective (3)"),
        (.googleVoidedReason, 4, "accidental purchase (4)"),
        (.googleVoidedReason, 5, "fraud (5)"),
        (.googleVoidedReason, 6, "friendly fraud (6)"),
        (.googleVoidedReason, 7, "chargeback (7)"),
        (.googleVoidedReason, 8, "unacknowledged purchase (8)"),
        (.googleVoidedReason, 17, "unknown (17)"),
        (.googleVoidedReason, -1, "unknown (-1)"),
    ] as [(StoreReasonCode, Int64, String)])
    func storeReasonCodesAreNamedWithTheirCode(kind: StoreReasonCode, code: Int64, shown: String) {
        #expect(kind.describe(code) == shown)
    }

    @Test func reasonCodesShowInTheTextUnderTheirDetailName() {
        #expect(StoreReasonCode(detail: "revocation_reason") == .appleRevocationReason)
        #expect(StoreReasonCode(detail: "voided_source") == .googleVoidedSource)
        #expect(StoreReasonCode(detail: "voided_reason") == .googleVoidedReason)
        #expect(StoreReasonCode(detail: "reason") == nil)
    }

    @Test func longLinesWrapOntoIndentedContinuationLinesLosingNothing() {
        let words = ["key=" + String(repeating: "k", count: 30), "payload=" + String(repeating: "p", count: 150), "x=1"]
        let lines = TextWrap.lines(head: "HEAD", words: words, indent: 22, width: 100)
        #expect(lines.first == "HEAD")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 22)) && $0.count <= 100 })
        #expect(lines.dropFirst().map { $0.dropFirst(22) }.joined() .replacingOccurrences(of: " ", with: "")
                == words.joined())
    }
}
