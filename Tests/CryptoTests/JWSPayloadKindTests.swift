import Foundation
import Testing
@testable import Crypto

/// A payload verifies only as its own kind, and each kind's app fields are read where that kind keeps them.
@Suite struct JWSPayloadKindTests {
    /// One signed payload of each kind, all of the configured sandbox app.
    static func payload(_ kind: ApplePayloadKind, _ f: JWSFixtures) -> JSONValue {
        switch kind {
        case .notification: return f.notification(appAppleId: JWSFixtures.appAppleId, environment: "Sandbox")
        case .transaction: return f.transaction()
        case .renewalInfo: return f.renewalInfo()
        case .appTransaction: return f.appTransaction()
        }
    }

    /// Every ordered pair (asked as, payload kind); the diagonal verifies, the 12 others are `wrong_payload_type`.
    static let pairs: [(ApplePayloadKind, ApplePayloadKind)] =
        ApplePayloadKind.allCases.flatMap { asked in ApplePayloadKind.allCases.map { (asked, $0) } }

    @Test(arguments: pairs)
    func aPayloadVerifiesOnlyAsItsOwnKind(asked: ApplePayloadKind, actual: ApplePayloadKind) throws {
        let f = try JWSFixtures()
        let jws = try f.sign(Self.payload(actual, f))
        let result = try f.sandboxVerifier().verify(jws, as: JSONValue.self, kind: asked)
        if asked == actual {
            #expect(result.code == "verified", "\(actual) as itself: \(result)")
            #expect(result.verified?.kind == actual)
        } else {
            #expect(result == .wrongPayloadType(expected: asked, actual: actual), "\(actual) as \(asked): \(result)")
            #expect(result.code == "wrong_payload_type")
        }
        #expect(try f.sandboxVerifier().verify(jws).verified?.kind == actual, "the untyped check takes the shape's kind")
    }

    @Test func typedModelsDoNotDecodeAnotherKindAsAnEmptyValue() throws {
        struct Transaction: Decodable, Sendable { let transactionId: String? }
        struct Notification: Decodable, Sendable { let notificationType: String? }
        let f = try JWSFixtures()
        let verifier = try f.sandboxVerifier()
        let notification = try f.sign(Self.payload(.notification, f))
        #expect(verifier.verifyTransaction(notification, as: Transaction.self).code == "wrong_payload_type")
        #expect(verifier.verifyNotification(try f.sign(f.transaction()), as: Notification.self).code == "wrong_payload_type")
    }

    @Test func aPayloadNamingNoKindOrTwoIsRefusedByTheUntypedCheck() throws {
        let f = try JWSFixtures()
        guard case var .object(fields) = f.transaction() else { return }
        fields["transactionId"] = nil
        #expect(try f.sandboxVerifier().verify(f.sign(.object(fields))) == .wrongPayloadType(expected: nil, actual: nil))
        fields["transactionId"] = .string("1")
        fields["autoRenewStatus"] = .integer(1)
        let both = try f.sign(.object(fields))
        #expect(try f.sandboxVerifier().verify(both, kind: .transaction) == .wrongPayloadType(expected: .transaction, actual: nil))
    }

    // RESCIND_CONSENT: app fields in `appData` (appAppleId, bundleId, environment, signedAppTransactionInfo),
    // as Apple's App Store Server Notifications documentation describes the `appData` object.
    @Test func rescindConsentVerifiesFromAppData() throws {
        let f = try JWSFixtures()
        let appData: [String: JSONValue] = [
            "appAppleId": .integer(JWSFixtures.appAppleId), "bundleId": .string(JWSFixtures.bundleId),
            "environment": .string("Production"), "signedAppTransactionInfo": .string(try f.sign(f.appTransaction(receiptType: "Production"))),
        ]
        let jws = try f.sign(f.notification(type: "RESCIND_CONSENT", section: "appData", fields: appData))
        let production = try f.productionVerifier()
        #expect(production.verifyNotification(jws, as: JSONValue.self).code == "verified")
        let other = try f.sign(f.notification(type: "RESCIND_CONSENT", section: "appData",
                                              fields: appData.merging(["bundleId": .string("com.example.other")]) { $1 }))
        #expect(production.verifyNotification(other, as: JSONValue.self).code == "wrong_app.bundle_id")
        #expect(try f.sandboxVerifier().verifyNotification(jws, as: JSONValue.self).code == "wrong_environment")
    }

    // EXTERNAL_PURCHASE_TOKEN: `externalPurchaseToken` (externalPurchaseId, tokenCreationDate, appAppleId, bundleId)
    // names no environment; a "SANDBOX_" id is a sandbox token (Apple's documentation and library).
    @Test func externalPurchaseTokenTakesItsEnvironmentFromTheIdPrefix() throws {
        let f = try JWSFixtures()
        func token(_ id: String) throws -> String {
            try f.sign(f.notification(type: "EXTERNAL_PURCHASE_TOKEN", subtype: "UNREPORTED", section: "externalPurchaseToken", fields: [
                "externalPurchaseId": .string(id), "tokenCreationDate": f.signedDate.millisecondsJSON,
                "appAppleId": .integer(JWSFixtures.appAppleId), "bundleId": .string(JWSFixtures.bundleId),
            ]))
        }
        let sandboxToken = try token("SANDBOX_b2d3d8a4-3c1f-4f43-9a5e-2c0f3b0e2f11")
        let productionToken = try token("b2d3d8a4-3c1f-4f43-9a5e-2c0f3b0e2f11")
        #expect(try f.sandboxVerifier().verifyNotification(sandboxToken, as: JSONValue.self).code == "verified")
        #expect(try f.productionVerifier().verifyNotification(productionToken, as: JSONValue.self).code == "verified")
        #expect(try f.productionVerifier().verifyNotification(sandboxToken, as: JSONValue.self).code == "wrong_environment")
        #expect(try f.sandboxVerifier().verifyNotification(productionToken, as: JSONValue.self).code == "wrong_environment")
    }

    @Test(arguments: [ApplePayloadKind.notification, .transaction])
    func aWrongAppWithoutSignedDateReportsWrongApp(kind: ApplePayloadKind) throws {
        let f = try JWSFixtures()
        var payload: JSONValue
        if kind == .notification {
            payload = f.notification(type: "DID_RENEW", section: "data", fields: [
                "bundleId": .string("com.example.other"), "environment": .string("Sandbox")])
        } else {
            payload = f.transaction(bundleId: "com.example.other")
        }
        guard case var .object(fields) = payload else { return }
        fields["signedDate"] = nil
        payload = .object(fields)
        let result = try f.sandboxVerifier().verify(f.sign(payload), kind: kind)
        #expect(result == .wrongApp(.bundleId(expected: JWSFixtures.bundleId, actual: "com.example.other")), "\(result)")
    }

    @Test func anAppTransactionWithoutSignedDateIsValidatedAtItsReceiptCreationDate() throws {
        let f = try JWSFixtures()
        let result = try f.productionVerifier().verifyAppTransaction(
            f.sign(f.appTransaction(receiptType: "Production", signedDate: false)), as: JSONValue.self)
        let verified = try #require(result.verified, "\(result)")
        #expect(abs(verified.signedDate.timeIntervalSince(f.signedDate)) < 0.001)
        let stranger = try f.productionVerifier().verifyAppTransaction(
            f.sign(f.appTransaction(appAppleId: 42, receiptType: "Production")), as: JSONValue.self)
        #expect(stranger == .wrongApp(.appAppleId(expected: JWSFixtures.appAppleId, actual: 42)))
    }

    @Test func theVerifiedPayloadKeepsEveryFieldByteForByte() throws {
        let f = try JWSFixtures()
        guard case var .object(fields) = f.transaction() else { return }
        fields["billingPlanType"] = .string("MONTHLY")
        fields["commitmentInfo"] = .object(["billingPeriodNumber": .integer(3), "totalBillingPeriods": .integer(12)])
        fields["fieldAppleAddsTomorrow"] = .object(["nested": .array([.integer(1), .string("x")])])
        let payloadJSON = try CompactJWS.json(JSONValue.object(fields))
        let jws = try CompactJWS.assemble(headerJSON: CompactJWS.json(JWSFixtures.Header(alg: "ES256", x5c: f.pki.x5c(["leaf", "intermediate", "root"]))),
                                          payloadJSON: payloadJSON, signer: f.signer)
        struct Known: Decodable, Sendable { let transactionId: String }
        let verified = try #require(f.sandboxVerifier().verifyTransaction(jws, as: Known.self).verified)
        #expect(verified.payload == payloadJSON, "the signed bytes, not a re-encoding of the decoded value")
        #expect(try JSONParser.parse(verified.payload)["fieldAppleAddsTomorrow"]?["nested"] == .array([.integer(1), .string("x")]))
    }
}
