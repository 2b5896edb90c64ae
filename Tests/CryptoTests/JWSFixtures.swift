import Foundation
@testable import Crypto

/// Builders for signed test payloads and verifiers over the shared `TestPKI`.
struct JWSFixtures {
    static let bundleId = "com.example.app"
    static let appAppleId: Int64 = 1_234_567_890

    let pki: TestPKI
    let signer: ES256Signer
    /// One hour after the certificates were made: inside every validity period, away from its edges.
    let signedDate: Date

    init() throws {
        pki = try TestPKI.shared.get()
        signer = try ES256Signer(privateKeyPEM: pki.leafKeyPEM)
        signedDate = pki.createdAt.addingTimeInterval(3600)
    }

    struct Header: Encodable {
        let alg: String
        let x5c: [String]?
    }

    /// A sandbox verifier trusting the test root (PEM).
    func sandboxVerifier(roots: [Data]? = nil) throws -> AppleJWSVerifier {
        try AppleJWSVerifier(configuration: JWSVerifierConfiguration(
            trustedRoots: roots ?? [pki.rootPEM], bundleId: Self.bundleId, appAppleId: nil, environment: .sandbox))
    }

    /// A production verifier trusting the test root (DER).
    func productionVerifier() throws -> AppleJWSVerifier {
        try AppleJWSVerifier(configuration: JWSVerifierConfiguration(
            trustedRoots: [pki.rootDER], bundleId: Self.bundleId, appAppleId: Self.appAppleId, environment: .production))
    }

    /// A transaction payload; pass nil to leave a field out.
    func transaction(id: String = "1000", bundleId: String? = bundleId, environment: String? = "Sandbox",
                     signedDate: Date? = nil) -> JSONValue {
        var fields: [String: JSONValue] = [
            "transactionId": .string(id), "originalTransactionId": .string("999"),
            "productId": .string("monthly"), "price": .integer(9990), "currency": .string("EUR"),
        ]
        fields["bundleId"] = bundleId.map(JSONValue.string)
        fields["environment"] = environment.map(JSONValue.string)
        fields["signedDate"] = (signedDate ?? self.signedDate).millisecondsJSON
        return .object(fields)
    }

    /// A V2 notification whose app fields sit under `data`.
    func notification(appAppleId: Int64?, environment: String = "Production") -> JSONValue {
        var data: [String: JSONValue] = ["bundleId": .string(Self.bundleId), "environment": .string(environment)]
        data["appAppleId"] = appAppleId.map(JSONValue.integer)
        return .object([
            "notificationType": .string("DID_RENEW"), "notificationUUID": .string(UUID().uuidString),
            "version": .string("2.0"), "signedDate": signedDate.millisecondsJSON, "data": .object(data),
        ])
    }

    /// A renewal info shaped like Apple's `JWSRenewalInfoDecodedPayload`: no bundleId or appAppleId.
    func renewalInfo(environment: String? = "Sandbox", signedDate: Date? = nil) -> JSONValue {
        var fields: [String: JSONValue] = [
            "originalTransactionId": .string("999"), "autoRenewProductId": .string("monthly"),
            "productId": .string("monthly"), "autoRenewStatus": .integer(1),
            "renewalDate": (signedDate ?? self.signedDate).addingTimeInterval(86_400).millisecondsJSON,
        ]
        fields["environment"] = environment.map(JSONValue.string)
        fields["signedDate"] = (signedDate ?? self.signedDate).millisecondsJSON
        return .object(fields)
    }

    /// An app transaction shaped like Apple's `AppTransaction`: the environment is `receiptType`, and
    /// `receiptCreationDate` is its signing instant (pass `signedDate: false` to leave `signedDate` out).
    func appTransaction(bundleId: String = bundleId, appAppleId: Int64? = appAppleId, receiptType: String = "Sandbox",
                        signedDate: Bool = true) -> JSONValue {
        var fields: [String: JSONValue] = [
            "bundleId": .string(bundleId), "receiptType": .string(receiptType),
            "applicationVersion": .string("1.4"), "originalApplicationVersion": .string("1.0"),
            "originalPurchaseDate": self.signedDate.addingTimeInterval(-86_400).millisecondsJSON,
            "receiptCreationDate": self.signedDate.millisecondsJSON, "appTransactionId": .string("704"),
            "originalPlatform": .string("iOS"),
        ]
        fields["appAppleId"] = appAppleId.map(JSONValue.integer)
        if signedDate { fields["signedDate"] = self.signedDate.millisecondsJSON }
        return .object(fields)
    }

    /// A notification whose app fields sit in `section` (`appData`, `externalPurchaseToken`, …), shaped like
    /// Apple's App Store Server Notifications V2 `responseBodyV2DecodedPayload`.
    func notification(type: String, subtype: String? = nil, section: String, fields: [String: JSONValue],
                      signedDate: Date? = nil) -> JSONValue {
        var payload: [String: JSONValue] = [
            "notificationType": .string(type), "notificationUUID": .string(UUID().uuidString),
            "version": .string("2.0"), "signedDate": (signedDate ?? self.signedDate).millisecondsJSON,
            section: .object(fields),
        ]
        payload["subtype"] = subtype.map(JSONValue.string)
        return .object(payload)
    }

    /// Signs `payload` with the leaf key under a header naming `alg` and `chain` (nil: no x5c).
    func sign(_ payload: JSONValue, alg: String = "ES256",
              chain: [String]? = ["leaf", "intermediate", "root"]) throws -> String {
        let header = Header(alg: alg, x5c: chain.map(pki.x5c))
        return try CompactJWS.assemble(headerJSON: CompactJWS.json(header),
                                       payloadJSON: CompactJWS.json(payload), signer: signer)
    }
}

extension Date {
    /// Milliseconds since 1970 as a JSON integer, as Apple sends dates.
    var millisecondsJSON: JSONValue { .integer(Int64((timeIntervalSince1970 * 1000).rounded())) }
}
