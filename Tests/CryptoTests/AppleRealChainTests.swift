import Foundation
import Testing
@testable import Crypto

/// Strict X.509 validation (`X509_V_FLAG_X509_STRICT`, the only mode the verifier runs) against Apple's real chain
/// and the generated test chain.
@Suite struct AppleRealChainTests {
    static func certificate(_ pem: String) throws -> X509Certificate {
        try #require(try X509Certificate.load(pemOrDER: Data(pem.utf8)).first)
    }

    static var signedAt: Int { Int(AppleRealChain.signedDateMilliseconds / 1000) }

    @Test func theEmbeddedRootIsApplesPublishedRootCAG3() throws {
        let dir = try OpenSSLTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(AppleRealChain.appleRootCAG3.utf8).write(to: dir.appendingPathComponent("g3.pem"))
        let output = try OpenSSLTool.check(["x509", "-in", "g3.pem", "-noout", "-fingerprint", "-sha256"], in: dir)
        let hex = output.split(separator: "=").last.map { $0.replacingOccurrences(of: ":", with: "") }
        #expect(hex?.trimmingCharacters(in: .whitespacesAndNewlines) == AppleRealChain.rootFingerprint)
    }

    @Test func theRealChainPassesStrictPathValidationAtItsSignedDate() throws {
        let store = try TrustStore(roots: [Self.certificate(AppleRealChain.appleRootCAG3)])
        let leaf = try Self.certificate(AppleRealChain.receiptSigningLeaf)
        let intermediate = try Self.certificate(AppleRealChain.wwdrG6)
        guard case .valid = store.validate(leaf: leaf, intermediate: intermediate, at: Self.signedAt) else {
            Issue.record("\(store.validate(leaf: leaf, intermediate: intermediate, at: Self.signedAt))")
            return
        }
        #expect(leaf.hasExtension(try ASN1ObjectID(AppleJWSVerifier.leafMarkerOID)))
        #expect(intermediate.hasExtension(try ASN1ObjectID(AppleJWSVerifier.intermediateMarkerOID)))
    }

    @Test func aRealAppleSignedTransactionVerifiesAtItsSignedDate() throws {
        let verifier = try AppleJWSVerifier(configuration: JWSVerifierConfiguration(
            trustedRoots: [Data(AppleRealChain.appleRootCAG3.utf8)], bundleId: AppleRealChain.bundleId,
            appAppleId: nil, environment: .sandbox))
        let result = verifier.verifyTransaction(AppleRealChain.signedTransaction, as: JSONValue.self)
        let verified = try #require(result.verified, "\(result)")
        #expect(verified.value["transactionId"]?.stringValue == "2000000847061981")
        #expect(Int64((verified.signedDate.timeIntervalSince1970 * 1000).rounded()) == AppleRealChain.signedDateMilliseconds)
        #expect(verifier.verifyNotification(AppleRealChain.signedTransaction, as: JSONValue.self).code == "wrong_payload_type")
        #expect(verifier.verifyRenewalInfo(AppleRealChain.signedTransaction, as: JSONValue.self).code == "wrong_payload_type")
    }

    @Test func theTestChainPassesStrictMode() throws {
        let f = try JWSFixtures()
        let store = try TrustStore(roots: X509Certificate.load(pemOrDER: f.pki.rootPEM))
        let leaf = try X509Certificate(der: try #require(f.pki.certificates["leaf"]))
        let intermediate = try X509Certificate(der: try #require(f.pki.certificates["intermediate"]))
        guard case .valid = store.validate(leaf: leaf, intermediate: intermediate, at: Int(f.signedDate.timeIntervalSince1970)) else {
            Issue.record("the generated chain must pass strict mode")
            return
        }
    }

    @Test func strictModeRefusesALeafWithoutAuthorityKeyIdentifier() throws {
        let f = try JWSFixtures()
        let dir = try OpenSSLTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["root", "intermediate", "leafNoAKID"] {
            try f.pki.certificates[name]?.write(to: dir.appendingPathComponent("\(name).der"))
            try OpenSSLTool.check(["x509", "-inform", "DER", "-in", "\(name).der", "-out", "\(name).pem"], in: dir)
        }
        let lenient = try OpenSSLTool.run(["verify", "-CAfile", "root.pem", "-untrusted", "intermediate.pem", "leafNoAKID.pem"], in: dir)
        #expect(lenient.status == 0, "OpenSSL's default mode accepts this chain: \(lenient.output)")
        let result = try f.sandboxVerifier().verify(f.sign(f.transaction(), chain: ["leafNoAKID", "intermediate", "root"]))
        #expect(result.code == "invalid_certificate.untrusted_chain", "\(result)")
    }
}
