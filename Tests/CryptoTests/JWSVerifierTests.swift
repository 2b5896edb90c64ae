import Foundation
import Testing
@testable import Crypto

@Suite struct JWSVerifierTests {
    struct Transaction: Decodable, Sendable, Equatable {
        let transactionId: String
        let price: Int64
        let currency: String
    }

    @Test func validTransactionDecodesAsJSON() throws {
        let f = try JWSFixtures()
        let payload = f.transaction()
        let result = try f.sandboxVerifier().verify(f.sign(payload))
        let verified = try #require(result.verified, "\(result)")
        #expect(result.code == "verified")
        #expect(verified.value == payload)
        #expect(verified.value["transactionId"]?.stringValue == "1000")
        #expect(try JSONDecoder().decode(JSONValue.self, from: verified.payload) == payload)
        #expect(abs(verified.signedDate.timeIntervalSince(f.signedDate)) < 0.001)
        #expect(verified.environment == .sandbox)
        #expect(verified.bundleId == JWSFixtures.bundleId)
    }

    @Test func validTransactionDecodesAsCallerType() throws {
        let f = try JWSFixtures()
        let result = try f.sandboxVerifier().verifyTransaction(f.sign(f.transaction()), as: Transaction.self)
        #expect(result.value == Transaction(transactionId: "1000", price: 9990, currency: "EUR"))
    }

    @Test func productionNotificationWithAppFieldsUnderDataVerifies() throws {
        let f = try JWSFixtures()
        let result = try f.productionVerifier().verify(f.sign(f.notification(appAppleId: JWSFixtures.appAppleId)))
        #expect(result.code == "verified", "\(result)")
        #expect(result.value?["data"]?["appAppleId"]?.int64Value == JWSFixtures.appAppleId)
    }

    @Test func renewalInfoWithoutBundleIdVerifiesButItsEnvironmentIsStillChecked() throws {
        let f = try JWSFixtures()
        let renewal = try f.sign(f.renewalInfo())
        let asRenewal = try f.sandboxVerifier().verifyRenewalInfo(renewal, as: JSONValue.self)
        #expect(asRenewal.code == "verified", "\(asRenewal)")
        #expect(asRenewal.verified?.kind == .renewalInfo)
        let production = try f.sign(f.renewalInfo(environment: "Production"))
        let wrongEnvironment = try f.sandboxVerifier().verifyRenewalInfo(production, as: JSONValue.self)
        #expect(wrongEnvironment.code == "wrong_environment", "\(wrongEnvironment)")
    }

    @Test func productionTransactionWithoutAppAppleIdVerifies() throws {
        let f = try JWSFixtures()
        let result = try f.productionVerifier().verify(f.sign(f.transaction(environment: "Production")))
        #expect(result.code == "verified", "\(result)")
    }

    @Test func x5cThirdCertificateIsNeverUsed() throws {
        let f = try JWSFixtures()
        let verifier = try f.sandboxVerifier()
        #expect(try verifier.verify(f.sign(f.transaction(), chain: ["leaf", "intermediate", "rogueRoot"])).code == "verified")
        let bogusThird = JWSFixtures.Header(alg: "ES256", x5c: f.pki.x5c(["leaf", "intermediate"]) + ["AAAA"])
        let jws = try CompactJWS.assemble(headerJSON: CompactJWS.json(bogusThird),
                                          payloadJSON: CompactJWS.json(f.transaction()), signer: f.signer)
        #expect(verifier.verify(jws).code == "verified")
    }

    @Test func chainThatSkipsTheIntermediateIsRejected() throws {
        let f = try JWSFixtures()
        let result = try f.sandboxVerifier().verify(f.sign(f.transaction(), chain: ["leaf", "root", "root"]))
        #expect(result.code == "invalid_certificate.missing_intermediate_oid")
    }

    @Test func undecodableValueIsReportedOnlyAfterTheSignatureChecks() throws {
        let f = try JWSFixtures()
        let verifier = try f.sandboxVerifier()
        let jws = try f.sign(f.transaction())
        let result = verifier.verifyTransaction(jws, as: [String].self)
        #expect(result.code == "invalid_format.payload_decoding")
        let parts = jws.split(separator: ".").map(String.init)
        let tampered = [parts[0], try f.sign(f.transaction(id: "7")).split(separator: ".").map(String.init)[1], parts[2]]
        #expect(verifier.verifyTransaction(tampered.joined(separator: "."), as: [String].self).code == "signature_failure")
    }

    @Test func absurdSignedDateIsAFormatErrorNotACrash() throws {
        let f = try JWSFixtures()
        guard case var .object(fields) = f.transaction() else { return }
        fields["signedDate"] = .number(1e300)
        #expect(try f.sandboxVerifier().verify(f.sign(.object(fields))).code == "invalid_format.payload_json")
    }

    @Test func configurationRules() throws {
        let f = try JWSFixtures()
        #expect(throws: CryptoError.self) {
            try JWSVerifierConfiguration(trustedRoots: [f.pki.rootPEM], bundleId: "b", appAppleId: nil, environment: .production)
        }
        #expect(throws: CryptoError.self) {
            try JWSVerifierConfiguration(trustedRoots: [], bundleId: "b", appAppleId: nil, environment: .sandbox)
        }
        #expect(throws: CryptoError.self) {
            try f.sandboxVerifier(roots: [Data("not a certificate".utf8)])
        }
        #expect(throws: CryptoError.self) {
            try JWSVerifierConfiguration(trustedRootFiles: ["/nonexistent/root.pem"], bundleId: "b", appAppleId: nil,
                                         environment: .sandbox)
        }
    }

    @Test func rootsLoadFromPEMAndDERFiles() throws {
        let f = try JWSFixtures()
        let dir = try OpenSSLTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pem = dir.appendingPathComponent("root.pem")
        let der = dir.appendingPathComponent("root.cer")
        try f.pki.rootPEM.write(to: pem)
        try f.pki.rootDER.write(to: der)
        for path in [pem.path, der.path] {
            let verifier = try AppleJWSVerifier(configuration: JWSVerifierConfiguration(
                trustedRootFiles: [path], bundleId: JWSFixtures.bundleId, appAppleId: nil, environment: .sandbox))
            #expect(try verifier.verify(f.sign(f.transaction())).code == "verified")
        }
    }
}
