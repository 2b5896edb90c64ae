import Foundation
import Testing
@testable import Crypto

@Suite struct Base64Tests {
    @Test func matchesFoundationForEveryLengthUpTo64() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...64 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let standard = Data(bytes).base64EncodedString()
            #expect(Base64.standardEncoded(bytes) == standard)
            let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64.urlEncoded(bytes) == url)
            #expect(Base64.decodeURL(url) == Data(bytes))
            #expect(Base64.decodeStandard(standard) == Data(bytes))
            #expect(Base64.decodeStandard(standard.replacingOccurrences(of: "=", with: "")) == Data(bytes))
        }
    }

    @Test func rejectsForeignAlphabetsPaddingAndBadLengths() {
        #expect(Base64.decodeURL("ab+/") == nil)
        #expect(Base64.decodeURL("YQ==") == nil)
        #expect(Base64.decodeURL("abcde") == nil)
        #expect(Base64.decodeStandard("ab-_") == nil)
        #expect(Base64.decodeStandard("YW Jj") == nil)
        #expect(Base64.decodeURL("") == Data())
    }

    @Test func ecdsaSignatureConvertsBetweenDERAndRawBothWays() throws {
        var raw = [UInt8](repeating: 0, count: 64)
        raw[0] = 0x00; raw[1] = 0x7F; raw[2] = 0x01   // r with a leading zero byte
        raw[32] = 0x80; raw[63] = 0x05                  // s with the high bit set
        let der = try ECDSASignature.der(fromRaw: raw)
        #expect(der == TestDER.ecdsaSignature(raw: raw))
        #expect(try ECDSASignature.raw(fromDER: der) == Data(raw))
        #expect(throws: CryptoError.self) { try ECDSASignature.der(fromRaw: [1, 2, 3]) }
        #expect(throws: CryptoError.self) { try ECDSASignature.raw(fromDER: [0x30, 0x01]) }
    }
}
