import Foundation
import Testing
@testable import Crypto

/// Every way a payload must be refused, each with its own outcome.
enum RejectionScenario: String, CaseIterable, Sendable, CustomStringConvertible {
    case tamperedPayload, tamperedSignature, truncatedSignature, otherRoot, rogueChainInX5C
    case leafWithoutOID, intermediateWithoutOID, expiredAtSignedDate
    case wrongBundleId, wrongAppAppleId, missingAppAppleIdInNotification, wrongEnvironment
    case missingX5C, twoX5CCertificates, twoParts, fourParts, algHS256, algNone
    case missingSignedDate, badBase64, headerNotJSON, payloadNotJSON

    var description: String { rawValue }

    /// The `JWSVerificationResult.code` this scenario must produce.
    var expectedCode: String {
        switch self {
        case .tamperedPayload, .tamperedSignature, .truncatedSignature: return "signature_failure"
        case .otherRoot, .rogueChainInX5C: return "invalid_certificate.untrusted_chain"
        case .leafWithoutOID: return "invalid_certificate.missing_leaf_oid"
        case .intermediateWithoutOID: return "invalid_certificate.missing_intermediate_oid"
        case .expiredAtSignedDate: return "invalid_certificate.not_valid_at_signed_date"
        case .wrongBundleId: return "wrong_app.bundle_id"
        case .wrongAppAppleId, .missingAppAppleIdInNotification: return "wrong_app.app_apple_id"
        case .wrongEnvironment: return "wrong_environment"
        case .missingX5C: return "invalid_format.missing_x5c"
        case .twoX5CCertificates: return "invalid_format.x5c_count"
        case .twoParts, .fourParts: return "invalid_format.part_count"
        case .algHS256, .algNone: return "invalid_format.unsupported_algorithm"
        case .missingSignedDate: return "invalid_format.missing_signed_date"
        case .badBase64: return "invalid_format.base64"
        case .headerNotJSON: return "invalid_format.header_json"
        case .payloadNotJSON: return "invalid_format.payload_json"
        }
    }

    /// The kind the scenario's payload is.
    var kind: ApplePayloadKind {
        switch self {
        case .wrongAppAppleId, .missingAppAppleIdInNotification: return .notification
        default: return .transaction
        }
    }

    /// The verifier and the JWS text for this scenario.
    func make(_ f: JWSFixtures) throws -> (AppleJWSVerifier, String) {
        let valid = try f.sign(f.transaction())
        let parts = valid.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let sandbox = try f.sandboxVerifier()
        switch self {
        case .tamperedPayload:
            let other = try f.sign(f.transaction(id: "2000")).split(separator: ".").map(String.init)
            return (sandbox, [parts[0], other[1], parts[2]].joined(separator: "."))
        case .tamperedSignature:
            var signature = try #require(Base64.decodeURL(parts[2]))
            signature[10] ^= 0x01
            return (sandbox, [parts[0], parts[1], Base64.urlEncoded(signature)].joined(separator: "."))
        case .truncatedSignature:
            return (sandbox, [parts[0], parts[1], String(parts[2].dropLast(4))].joined(separator: "."))
        case .otherRoot:
            return (try f.sandboxVerifier(roots: [f.pki.rogueRootPEM]), valid)
        case .rogueChainInX5C:
            return (sandbox, try f.sign(f.transaction(), chain: ["rogueLeaf", "rogueIntermediate", "rogueRoot"]))
        case .leafWithoutOID:
            return (sandbox, try f.sign(f.transaction(), chain: ["leafNoOID", "intermediate", "root"]))
        case .intermediateWithoutOID:
            return (sandbox, try f.sign(f.transaction(), chain: ["leafUnderNoOID", "intermediateNoOID", "root"]))
        case .expiredAtSignedDate:
            let late = f.pki.createdAt.addingTimeInterval(Double(TestPKI.leafDays + 5) * 86_400)
            return (sandbox, try f.sign(f.transaction(signedDate: late)))
        case .wrongBundleId:
            return (sandbox, try f.sign(f.transaction(bundleId: "com.example.other")))
        case .wrongAppAppleId:
            return (try f.productionVerifier(), try f.sign(f.notification(appAppleId: 42)))
        case .missingAppAppleIdInNotification:
            return (try f.productionVerifier(), try f.sign(f.notification(appAppleId: nil)))
        case .wrongEnvironment:
            return (sandbox, try f.sign(f.transaction(environment: "Production")))
        case .missingX5C:
            return (sandbox, try f.sign(f.transaction(), chain: nil))
        case .twoX5CCertificates:
            return (sandbox, try f.sign(f.transaction(), chain: ["leaf", "intermediate"]))
        case .twoParts:
            return (sandbox, parts[0] + "." + parts[1])
        case .fourParts:
            return (sandbox, valid + "." + parts[2])
        case .algHS256:
            return (sandbox, try f.sign(f.transaction(), alg: "HS256"))
        case .algNone:
            return (sandbox, try f.sign(f.transaction(), alg: "none"))
        case .missingSignedDate:
            guard case var .object(fields) = f.transaction() else { throw CryptoError.invalidArgument("fixture") }
            fields["signedDate"] = nil
            return (sandbox, try f.sign(.object(fields)))
        case .badBase64:
            return (sandbox, [parts[0], parts[1] + "+", parts[2]].joined(separator: "."))
        case .headerNotJSON:
            return (sandbox, [Base64.urlEncoded(Array("{alg".utf8)), parts[1], parts[2]].joined(separator: "."))
        case .payloadNotJSON:
            return (sandbox, [parts[0], Base64.urlEncoded(Array("[1,2".utf8)), parts[2]].joined(separator: "."))
        }
    }
}

@Suite struct JWSRejectionTests {
    @Test(arguments: RejectionScenario.allCases)
    func rejectsWithItsOwnOutcome(_ scenario: RejectionScenario) throws {
        let (verifier, jws) = try scenario.make(JWSFixtures())
        let result = verifier.verify(jws)
        #expect(result.code == scenario.expectedCode, "\(scenario): \(result)")
        #expect(result.value == nil)
        let typed = verifier.verify(jws, as: JSONValue.self, kind: scenario.kind)
        #expect(typed.code == scenario.expectedCode)
    }

    @Test func outcomesCarryTheirDetails() throws {
        let f = try JWSFixtures()
        let (v2, two) = try RejectionScenario.twoParts.make(f)
        #expect(v2.verify(two) == .invalidFormat(.partCount(2)))
        let (v4, four) = try RejectionScenario.fourParts.make(f)
        #expect(v4.verify(four) == .invalidFormat(.partCount(4)))
        let (va, hs) = try RejectionScenario.algHS256.make(f)
        #expect(va.verify(hs) == .invalidFormat(.unsupportedAlgorithm("HS256")))
        let (vb, bundle) = try RejectionScenario.wrongBundleId.make(f)
        #expect(vb.verify(bundle) == .wrongApp(.bundleId(expected: JWSFixtures.bundleId, actual: "com.example.other")))
        let (ve, environment) = try RejectionScenario.wrongEnvironment.make(f)
        #expect(ve.verify(environment) == .wrongEnvironment(expected: .sandbox, actual: .production))
        let (vl, leaf) = try RejectionScenario.leafWithoutOID.make(f)
        #expect(vl.verify(leaf) == .invalidCertificate(.missingLeafMarker))
    }
}
