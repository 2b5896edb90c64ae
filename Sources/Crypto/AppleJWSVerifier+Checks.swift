import BillingCore
import COpenSSL
import Foundation

/// The JOSE header fields the verifier reads.
struct JWSHeader {
    let alg: String?
    let x5c: [String]?

    /// Parses the header JSON; `alg` must be a string and `x5c` an array of strings when present.
    init(json: Data) throws {
        guard case let .object(members) = try JSONParser.parse(json) else { throw JSONTypeError("not an object") }
        switch members["alg"] {
        case nil: alg = nil
        case let .string(value)?: alg = value
        default: throw JSONTypeError("alg is not a string")
        }
        switch members["x5c"] {
        case nil: x5c = nil
        case let .array(elements)?:
            x5c = try elements.map {
                guard case let .string(text) = $0 else { throw JSONTypeError("x5c holds a non-string") }
                return text
            }
        default: throw JSONTypeError("x5c is not an array")
        }
    }
}

/// The envelope, plus the caller's value or why it did not decode.
struct DecodedPayload<Value> {
    let envelope: PayloadEnvelope
    let value: Result<Value, JWSFormatProblem>
}

/// The outcome of one signature check.
enum SignatureCheck {
    case valid
    case invalid
    case error(String)
}

extension AppleJWSVerifier {
    /// One JSON parse for envelope and value; only when the value fails is the envelope parsed alone,
    /// so that a payload of an unexpected shape still gets its signature checked before being reported.
    func decodePayload<Value: Decodable>(_ payload: Data, as type: Value.Type)
        -> Result<DecodedPayload<Value>, JWSFormatProblem> {
        if type == JSONValue.self {
            // The generic path: one strict parse, envelope read from the parsed value.
            do {
                let json = try JSONParser.parse(payload)
                let envelope = try PayloadEnvelope(json: json)
                guard let value = json as? Value else { return .failure(.payloadJSON("internal type mismatch")) }
                return .success(DecodedPayload(envelope: envelope, value: .success(value)))
            } catch {
                return .failure(.payloadJSON(String(describing: error)))
            }
        }
        let decoder = JSONDecoder()
        do {
            let both = try decoder.decode(EnvelopeAndValue<Value>.self, from: payload)
            return .success(DecodedPayload(envelope: both.envelope, value: .success(both.value)))
        } catch let valueError {
            do {
                let envelope = try decoder.decode(PayloadEnvelope.self, from: payload)
                let problem = JWSFormatProblem.payloadDecoding(String(describing: valueError))
                return .success(DecodedPayload(envelope: envelope, value: .failure(problem)))
            } catch {
                return .failure(.payloadJSON(String(describing: error)))
            }
        }
    }

    /// The cached chain for x5c[0] + x5c[1] valid at `time`, validating it on a miss.
    func resolveChain(leaf: String, intermediate: String, at time: Int) -> ChainOutcome {
        chains.chain(for: ChainCache.Key(leaf: leaf, intermediate: intermediate), at: time) {
            validateChain(leaf: leaf, intermediate: intermediate, at: time)
        }
    }

    /// Full validation: parse, marker OIDs, RFC 5280 path to a configured root at `time`, leaf key type.
    func validateChain(leaf leafText: String, intermediate intermediateText: String, at time: Int) -> ChainOutcome {
        guard let leafDER = Base64.decodeStandard(leafText), let intermediateDER = Base64.decodeStandard(intermediateText) else {
            return .format(.base64(part: "x5c"))
        }
        let leaf: X509Certificate
        let intermediate: X509Certificate
        do {
            leaf = try X509Certificate(der: leafDER)
            intermediate = try X509Certificate(der: intermediateDER)
        } catch {
            return .certificate(.unparsable(String(describing: error)))
        }
        guard intermediate.hasExtension(intermediateMarker) else { return .certificate(.missingIntermediateMarker) }
        guard leaf.hasExtension(leafMarker) else { return .certificate(.missingLeafMarker) }
        let validFrom: Int
        let validUntil: Int
        switch trustStore.validate(leaf: leaf, intermediate: intermediate, at: time) {
        case let .valid(from, until):
            (validFrom, validUntil) = (from, until)
        case let .rejected(code, message):
            let expired = code == X509_V_ERR_CERT_HAS_EXPIRED || code == X509_V_ERR_CERT_NOT_YET_VALID
            return .certificate(expired ? .notValidAtSignedDate(message) : .untrustedChain(message))
        case let .unexpectedPath(message):
            return .certificate(.unexpectedPath(message))
        case let .failure(message):
            return .retryable(message)
        }
        let key: EVPKey
        do {
            key = try leaf.publicKey()
        } catch {
            return .certificate(.unsupportedKey(String(describing: error)))
        }
        guard key.isP256 else { return .certificate(.unsupportedKey("not an EC P-256 key")) }
        do {
            let verifier = try ES256VerifyTemplate(key: key)
            return .valid(VerifiedChain(verifier: verifier, validFrom: validFrom, validUntil: validUntil))
        } catch {
            return .retryable(String(describing: error))
        }
    }

    /// Verifies the raw r‖s `signature` over `message` with the leaf key.
    func checkSignature(_ signature: Data, over message: UnsafeBufferPointer<UInt8>,
                        with verifier: ES256VerifyTemplate) -> SignatureCheck {
        guard signature.count == 64 else { return .invalid }
        do {
            let der = try ECDSASignature.der(fromRaw: signature)
            return try verifier.verify(signature: der, message: message) ? .valid : .invalid
        } catch {
            return .error(String(describing: error))
        }
    }

    /// The app fields of `kind`: bundleId, then appAppleId (production; required in notifications and app
    /// transactions, checked in transactions when present), then environment; nil when all match. A renewal info
    /// names no app, so only its environment is checked, as in Apple's library.
    func checkApp<Value>(_ envelope: PayloadEnvelope, kind: ApplePayloadKind) -> JWSVerificationResult<Value>? {
        let app = envelope.app(for: kind)
        if kind != .renewalInfo {
            guard app.bundleId == configuration.bundleId else {
                return .wrongApp(.bundleId(expected: configuration.bundleId, actual: app.bundleId))
            }
            let required = kind == .notification || kind == .appTransaction
            if configuration.environment == .production, let expected = configuration.appAppleId,
               app.appAppleId != nil || required, app.appAppleId != expected {
                return .wrongApp(.appAppleId(expected: expected, actual: app.appAppleId))
            }
        }
        guard app.environment == configuration.environment.rawValue else {
            return .wrongEnvironment(expected: configuration.environment, actual: app.environment.map(AppleEnvironment.init))
        }
        return nil
    }
}
