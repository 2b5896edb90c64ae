import Foundation
import Testing
@testable import Crypto

@Suite struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue {
        try JSONValue.parse(Data(text.utf8))
    }

    @Test func parsesEveryKindLikeJSONDecoder() throws {
        let text = #"""
            {"s":"a\"b\\c\/d\n\u00e9\ud83d\ude00","i":-1700000000123,"d":1.5e3,"f":0.25,"t":true,"n":null,
             "a":[1,"x",[],{}],"o":{"k":false},"big":92233720368547758070,"e":"","u":"\u0000","one":1.0,"z":-0}
            """#
        let parsed = try parse(text)
        #expect(parsed == (try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))))
        #expect(parsed["s"] == .string("a\"b\\c/d\né😀"))
        #expect(parsed["i"] == .integer(-1_700_000_000_123))
        #expect(parsed["d"] == .integer(1500))
        #expect(parsed["f"] == .number(0.25))
        #expect(parsed["big"]?.doubleValue == Double("92233720368547758070"))  // the nearest Double, as the literal was
        #expect(try parse(" [ ] ") == .array([]))
        #expect(try parse("\"é\"") == .string("é"))
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "01", "-", "1.", "1e", ".5", "+1", "tru", "nul", "[1] x",
        "\"abc", "\"\u{01}\"", "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\u12g4\"", "{\"a\":1,\"a\":2}",
        "NaN", "1e999", "{1:2}",
    ])
    func rejectsMalformedText(_ text: String) {
        #expect(throws: CryptoError.self) { try parse(text) }
    }

    @Test func rejectsInvalidUTF8AndDeepNesting() {
        #expect(throws: CryptoError.self) { try JSONValue.parse(Data([0x22, 0xC3, 0x28, 0x22])) }
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: CryptoError.self) { try parse(deep) }
        let fine = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect((try? parse(fine)) != nil)
    }
}
