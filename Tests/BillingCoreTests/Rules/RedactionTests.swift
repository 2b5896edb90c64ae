import Testing
import BillingCore

/// The one identifier masker: long identifiers keep four characters at each end, short ones show nothing.
struct RedactionTests {
    @Test func longIdentifiersKeepTheirEndsAndShortOnesShowNothing() {
        #expect(Redaction.mask("GPA.1234-5678-9012-34567") == "GPA.…4567")
        #expect(Redaction.mask("123456789") == "1234…6789")
        #expect(Redaction.mask("12345678") == "…")
        #expect(Redaction.mask("") == "…")
        #expect(Redaction.mask("token-ü-12345"[...]) == "toke…2345")
    }

    @Test func excerptsQuoteShortValuesWholeAndMaskLongOnesAndKeyArmour() {
        #expect(Redaction.excerpt("Play Points credit") == "Play Points credit")
        #expect(Redaction.excerpt(String(repeating: "x", count: 32)) == String(repeating: "x", count: 32))
        #expect(Redaction.excerpt("abcd" + String(repeating: "x", count: 29) + "wxyz") == "abcd…wxyz (37 characters)")
        #expect(Redaction.excerpt("-----BEGIN PRIVATE KEY-----") == "----…---- (27 characters)")
    }
}
