import SimulatorFixtures
import Crypto
import Foundation
import TestCertificates
import Testing
@testable import StoreSimulator

@Suite("Test certificate authority")
struct CertificateAuthorityTests {
    @Test("Its chain signs payloads Apple's verifier accepts, and only with its own root")
    func chain() throws {
        let authority = try TestCertificateAuthority()
        #expect(authority.x5c.count == 3)
        #expect(authority.rootPEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        let signer = PayloadSigner(authority: authority, bundleId: TruthFixture.bundleId)
        let jws = try signer.sign(TruthFixture.subscriptionA.transactions[0], now: TruthFixture.now)
        let verifier = try AppleJWSVerifier(configuration: JWSVerifierConfiguration(
            trustedRoots: [Data(authority.rootPEM.utf8)], bundleId: TruthFixture.bundleId,
            appAppleId: TruthFixture.appAppleId, environment: .production))
        #expect(verifier.verify(jws).value == TruthFixture.subscriptionA.transactions[0])
        let stranger = try AppleJWSVerifier(configuration: JWSVerifierConfiguration(
            trustedRoots: [authority.rootDER, Data(try TestCertificateAuthority().rootPEM.utf8)].suffix(1),
            bundleId: TruthFixture.bundleId, appAppleId: TruthFixture.appAppleId, environment: .production))
        #expect(stranger.verify(jws).code.hasPrefix("invalid_certificate"))
    }

    @Test("The simulator writes its root where configured")
    func rootFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sim-root-\(UUID().uuidString)/root.pem").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let simulator = try StoreSimulator(truth: TruthFixture.truth(), configuration: SimulatorConfiguration(rootCertificateOutput: path))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == simulator.rootCertificatePEM)
    }

    @Test("A payload without signedDate gets the simulator's time")
    func signedDateAdded() throws {
        let signer = PayloadSigner(authority: try TestCertificateAuthority(), bundleId: TruthFixture.bundleId)
        let jws = try signer.sign(.object(["bundleId": .string(TruthFixture.bundleId)]), now: TruthFixture.now)
        #expect(jwsPayload(jws)["signedDate"] == .integer(TruthFixture.nowMs))
    }
}
