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

    /// A `String` is cut by its bytes when it is ASCII without a CR, by characters otherwise ("\r\n" is one character,
    /// "é" may be two scalars): both give what the characters do.
    @Test func aStringIsMaskedAsItsCharactersAre() {
        let cases = ["5f0c2a9e-1b7d-4c3a-9e8f-0a1b2c3d4e5f", "123456789", "12345678", "", "abc\r\nefgh", "abcd\r\nefghi",
                     "e\u{301}bcdefghij", "token-ü-12345", "ab\rcdefghij", "🙂🙂🙂🙂🙂🙂🙂🙂🙂"]
        for text in cases {
            #expect(Redaction.mask(text) == Redaction.mask(text[...]), "\(text.debugDescription)")
        }
        #expect(Redaction.mask("abc\r\nefgh") == "…", "eight characters, nine bytes")
        #expect(Redaction.mask("5f0c2a9e-1b7d-4c3a-9e8f-0a1b2c3d4e5f") == "5f0c…4e5f")
    }

    @Test func excerptsQuoteShortValuesWholeAndMaskLongOnesAndKeyArmour() {
        #expect(Redaction.excerpt("Play Points credit") == "Play Points credit")
        #expect(Redaction.excerpt(String(repeating: "x", count: 32)) == String(repeating: "x", count: 32))
        #expect(Redaction.excerpt("abcd" + String(repeating: "x", count: 29) + "wxyz") == "abcd…wxyz (37 characters)")
        #expect(Redaction.excerpt("-----BEGIN PRIVATE KEY-----") == "----…---- (27 characters)")
    }

    @Test func aGoogleTransactionKeyShowsItsOrderAndHidesItsPurchaseToken() {
        #expect(Redaction.transactionKey("GOOGLE:abcdefghijklmnop.AO-J1Oxyz:GPA.3000-0005-0000-02426:REFUNDED")
            == "GOOGLE:abcd…Oxyz:GPA.3000-0005-0000-02426:REFUNDED")
        #expect(Redaction.transactionKey("GOOGLE:token:GPA.1") == "GOOGLE:…:GPA.1")
        #expect(Redaction.transactionKey("GOOGLE:abcdefghijk") == "GOOGLE:abcd…hijk")
        #expect(Redaction.transactionKey("APPLE:2000000123456789") == "APPLE:2000000123456789", "Apple's keys hold no purchase token")
    }
}
