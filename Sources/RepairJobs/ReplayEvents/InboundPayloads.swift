import BillingCore
import Crypto
import Foundation

/// Reads the stored payload of an inbound event into verified store types; never returns unverified data.
///
/// Apple: the API server stores the verified, decoded form `{"notification", "transactionInfo", "renewalInfo"}`
/// (trusted only when the row says `verified`); a payload carrying a `signedPayload` string is verified here
/// with the App Store verifier. Google: the DeveloperNotification, bare or inside a Pub/Sub push envelope.
enum InboundPayloads {
    /// The stored Apple shapes.
    struct StoredApple: Decodable {
        var notification: ResponseBodyV2DecodedPayload?
        var transactionInfo: JWSTransactionDecodedPayload?
        var signedPayload: String?
    }

    /// A verified Apple notification and the transaction it names (absent for e.g. a TEST notification).
    struct Apple {
        let notification: ResponseBodyV2DecodedPayload
        let transaction: JWSTransactionDecodedPayload?
    }

    /// The verified Apple notification of `event`.
    static func apple(_ event: InboundEvent, verifiers: AppleVerifiers?) throws -> Apple {
        let stored: StoredApple
        do {
            stored = try JSONDecoder().decode(StoredApple.self, from: Data(event.payload.utf8))
        } catch {
            throw ItemFailure("event \(event.id): the Apple payload does not decode: \(error)", kind: .undecodable)
        }
        if let signed = stored.signedPayload {
            guard let verifier = verifiers?.forEventEnvironment(event.environment) else {
                throw ItemFailure("event \(event.id): Apple is not configured; its signedPayload cannot be verified", kind: .notConfigured)
            }
            let notification = try verified(verifier.verifyNotification(signed, as: ResponseBodyV2DecodedPayload.self), event, "signedPayload")
            let transaction = try notification.data?.signedTransactionInfo.map {
                try verified(verifier.verifyTransaction($0, as: JWSTransactionDecodedPayload.self), event, "signedTransactionInfo")
            }
            return Apple(notification: notification, transaction: transaction)
        }
        guard let notification = stored.notification else {
            throw ItemFailure("event \(event.id): the Apple payload has neither a signedPayload nor a decoded notification", kind: .undecodable)
        }
        guard event.verified else {
            throw ItemFailure("event \(event.id): the decoded Apple payload is not marked verified; it is never projected", kind: .signature)
        }
        return Apple(notification: notification, transaction: stored.transactionInfo)
    }

    /// The Google DeveloperNotification of `event`.
    static func google(_ event: InboundEvent) throws -> DeveloperNotification {
        let data = Data(event.payload.utf8)
        do {
            // Probe: the stored payload is either a Pub/Sub push envelope or the bare notification; the bare
            // decode below throws when it is neither.
            if let envelope = try? JSONDecoder().decode(PubSubPushEnvelope.self, from: data) {
                return try envelope.message.decodedNotification()
            }
            return try JSONDecoder().decode(DeveloperNotification.self, from: data)
        } catch {
            throw ItemFailure("event \(event.id): the Google payload does not decode: \(error)", kind: .undecodable)
        }
    }

    private static func verified<Value>(_ result: JWSVerificationResult<Value>, _ event: InboundEvent, _ what: String) throws -> Value {
        if case .verified(let jws) = result { return jws.value }
        throw ItemFailure("event \(event.id): \(what) failed verification (\(result)); nothing is projected", kind: .signature)
    }
}
