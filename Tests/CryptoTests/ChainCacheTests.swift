import Foundation
import Testing
@testable import Crypto

@Suite struct ChainCacheTests {
    @Test func manyPayloadsOneChainValidateTheChainOnce() throws {
        let f = try JWSFixtures()
        let verifier = try f.sandboxVerifier()
        #expect(verifier.chainVerificationCount == 0)
        for index in 0..<25 {
            let date = f.signedDate.addingTimeInterval(Double(index) * 60)
            let result = try verifier.verify(f.sign(f.transaction(id: "\(index)", signedDate: date)))
            #expect(result.code == "verified")
        }
        #expect(verifier.chainVerificationCount == 1)
    }

    @Test func failuresAreNotCachedAndDoNotPoisonTheCache() throws {
        let f = try JWSFixtures()
        let verifier = try f.sandboxVerifier()
        let noOID = try f.sign(f.transaction(), chain: ["leafNoOID", "intermediate", "root"])
        #expect(verifier.verify(noOID).code == "invalid_certificate.missing_leaf_oid")
        #expect(verifier.verify(noOID).code == "invalid_certificate.missing_leaf_oid")
        #expect(verifier.chainVerificationCount == 2)
        #expect(try verifier.verify(f.sign(f.transaction())).code == "verified")
        #expect(verifier.chainVerificationCount == 3)
    }

    @Test func cachedChainIsStillCheckedAtEachSignedDate() throws {
        let f = try JWSFixtures()
        let verifier = try f.sandboxVerifier()
        #expect(try verifier.verify(f.sign(f.transaction())).code == "verified")
        let afterLeafExpiry = f.pki.createdAt.addingTimeInterval(Double(TestPKI.leafDays + 1) * 86_400)
        let beforeIssue = f.pki.createdAt.addingTimeInterval(-86_400)
        for date in [afterLeafExpiry, beforeIssue] {
            let result = try verifier.verify(f.sign(f.transaction(signedDate: date)))
            #expect(result.code == "invalid_certificate.not_valid_at_signed_date")
        }
        #expect(try verifier.verify(f.sign(f.transaction())).code == "verified")
        #expect(verifier.chainVerificationCount == 3)
    }

    @Test func batchVerifiesInOrderWithOneChainValidation() throws {
        let f = try JWSFixtures()
        let verifier = try f.sandboxVerifier()
        var payloads = try (0..<300).map { try f.sign(f.transaction(id: "\($0)")) }
        payloads[17] = String(payloads[17].dropLast(3))
        let results = verifier.verifyBatch(payloads)
        #expect(results.count == payloads.count)
        for (index, result) in results.enumerated() where index != 17 {
            #expect(result.value?["transactionId"]?.stringValue == "\(index)")
        }
        #expect(results[17].code == "signature_failure")
        #expect(verifier.chainVerificationCount == 1)
        #expect(verifier.verifyBatch([]).isEmpty)
    }
}
