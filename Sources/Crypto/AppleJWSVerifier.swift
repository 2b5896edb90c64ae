import Foundation

/// Verifies App Store signed payloads (notifications, transactions, renewal infos, app transactions) the way
/// Apple's library does, and a little stricter.
///
/// Checks, in order: three base64url parts; `alg` ES256; three `x5c` certificates, of which only x5c[0] (leaf) and
/// x5c[1] (intermediate) are used; RFC 5280 path validation to a configured root in OpenSSL's strict X.509 mode
/// (`X509_V_FLAG_X509_STRICT`, always on: Apple's real G3 → WWDR G6 chain passes it, see `TrustStore`); Apple's
/// marker OIDs; the leaf's P-256 signature; the payload's kind (`ApplePayloadKind`: a payload of another kind is
/// `wrongPayloadType`, never an empty value); the app fields of that kind (bundleId, appAppleId in production,
/// environment); and only then the signing instant, so a payload of another app reports `wrong_app` even when it
/// also lacks `signedDate`.
///
/// The validation instant is the payload's `signedDate` (an app transaction without one: its
/// `receiptCreationDate`, which Apple's library treats as its signed date). Without either, the chain is validated
/// at the current time, as Apple's library does, so the signature and the app can still be judged; the payload is
/// then refused as `missing_signed_date`, because a stored payload must verify the same way on every replay.
/// Safe to share between threads; validated chains are cached.
public final class AppleJWSVerifier: Sendable {
    /// Extension OID every Apple WWDR intermediate carries.
    public static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"
    /// Extension OID every App Store receipt-signing leaf carries.
    public static let leafMarkerOID = "1.2.840.113635.100.6.11.1"

    /// What this verifier trusts and expects.
    public let configuration: JWSVerifierConfiguration
    let trustStore: TrustStore
    let intermediateMarker: ASN1ObjectID
    let leafMarker: ASN1ObjectID
    let chains: ChainCache

    /// Loads the configured roots; throws when one does not parse.
    public init(configuration: JWSVerifierConfiguration, chainCacheLimit: Int = 64) throws {
        var roots: [X509Certificate] = []
        for data in configuration.trustedRoots {
            roots += try X509Certificate.load(pemOrDER: data)
        }
        self.configuration = configuration
        trustStore = try TrustStore(roots: roots)
        intermediateMarker = try ASN1ObjectID(Self.intermediateMarkerOID)
        leafMarker = try ASN1ObjectID(Self.leafMarkerOID)
        chains = ChainCache(limit: max(1, chainCacheLimit))
    }

    /// How many full certificate-path validations ran (cache misses); for tests and metrics.
    public var chainVerificationCount: Int { chains.validationCount }

    /// Verifies `jws` as a payload of `kind` and decodes it as `type`; a payload of another kind is `wrongPayloadType`.
    public func verify<Value: Decodable & Sendable>(_ jws: String, as type: Value.Type,
                                                    kind: ApplePayloadKind) -> JWSVerificationResult<Value> {
        var text = jws
        return text.withUTF8 { verify(utf8: $0, as: type, kind: kind) }
    }

    /// Verifies a notification `signedPayload` (app fields from `data`, `summary`, `appData` or `externalPurchaseToken`).
    public func verifyNotification<Value: Decodable & Sendable>(_ jws: String, as type: Value.Type) -> JWSVerificationResult<Value> {
        verify(jws, as: type, kind: .notification)
    }

    /// Verifies a `signedTransactionInfo` (bundleId and environment at the top level).
    public func verifyTransaction<Value: Decodable & Sendable>(_ jws: String, as type: Value.Type) -> JWSVerificationResult<Value> {
        verify(jws, as: type, kind: .transaction)
    }

    /// Verifies a `signedRenewalInfo`: Apple's renewal info carries no bundleId or appAppleId, so, as in
    /// Apple's own verifier, only its environment is checked against the configuration.
    public func verifyRenewalInfo<Value: Decodable & Sendable>(_ jws: String, as type: Value.Type) -> JWSVerificationResult<Value> {
        verify(jws, as: type, kind: .renewalInfo)
    }

    /// Verifies a signed app transaction (bundleId, appAppleId in production, and `receiptType` as the environment).
    public func verifyAppTransaction<Value: Decodable & Sendable>(_ jws: String, as type: Value.Type) -> JWSVerificationResult<Value> {
        verify(jws, as: type, kind: .appTransaction)
    }

    /// Verifies `jws` as a payload of `kind`, decoded as a generic JSON value.
    public func verify(_ jws: String, kind: ApplePayloadKind) -> JWSVerificationResult<JSONValue> {
        verify(jws, as: JSONValue.self, kind: kind)
    }

    /// Verifies `jws` as whichever kind its fields show (for diagnostics and tests; callers that know what they
    /// expect pass the kind). A payload whose fields name no kind, or several, is `wrongPayloadType`.
    public func verify(_ jws: String) -> JWSVerificationResult<JSONValue> {
        var text = jws
        return text.withUTF8 { verify(utf8: $0, as: JSONValue.self, kind: nil) }
    }

    /// The whole check; `kind` nil takes the kind the payload's fields show.
    func verify<Value: Decodable & Sendable>(utf8 jws: UnsafeBufferPointer<UInt8>, as type: Value.Type,
                                             kind requested: ApplePayloadKind?) -> JWSVerificationResult<Value> {
        var dots: [Int] = []
        for index in jws.indices where jws[index] == UInt8(ascii: ".") {
            dots.append(index)
            if dots.count > 3 { break }
        }
        guard dots.count == 2 else { return .invalidFormat(.partCount(dots.count + 1)) }
        let signingInput = UnsafeBufferPointer(rebasing: jws[0..<dots[1]])
        guard let headerJSON = Base64.decode(UnsafeBufferPointer(rebasing: jws[0..<dots[0]]), url: true) else {
            return .invalidFormat(.base64(part: "header"))
        }
        let header: JWSHeader
        do {
            header = try JWSHeader(json: headerJSON)
        } catch {
            return .invalidFormat(.headerJSON(String(describing: error)))
        }
        guard header.alg == "ES256" else { return .invalidFormat(.unsupportedAlgorithm(header.alg)) }
        guard let x5c = header.x5c else { return .invalidFormat(.missingCertificateChain) }
        guard x5c.count == 3 else { return .invalidFormat(.certificateCount(x5c.count)) }
        guard let payload = Base64.decode(UnsafeBufferPointer(rebasing: jws[(dots[0] + 1)..<dots[1]]), url: true) else {
            return .invalidFormat(.base64(part: "payload"))
        }
        guard let signature = Base64.decode(UnsafeBufferPointer(rebasing: jws[(dots[1] + 1)...]), url: true) else {
            return .invalidFormat(.base64(part: "signature"))
        }
        let decoded: DecodedPayload<Value>
        switch decodePayload(payload, as: type) {
        case let .success(value): decoded = value
        case let .failure(problem): return .invalidFormat(problem)
        }
        let envelope = decoded.envelope
        let signedMilliseconds = envelope.signedDate ?? envelope.receiptCreationDate
        let time: Int
        if let signedMilliseconds {
            guard signedMilliseconds.isFinite, let seconds = Int(exactly: (signedMilliseconds / 1000).rounded(.down)) else {
                return .invalidFormat(.payloadJSON("signedDate \(signedMilliseconds) is out of range"))
            }
            time = seconds
        } else {
            time = Int(Date().timeIntervalSince1970)
        }
        let chain: VerifiedChain
        switch resolveChain(leaf: x5c[0], intermediate: x5c[1], at: time) {
        case let .valid(valid): chain = valid
        case let .format(problem): return .invalidFormat(problem)
        case let .certificate(problem): return .invalidCertificate(problem)
        case let .retryable(message): return .retryableFailure(message)
        }
        switch checkSignature(signature, over: signingInput, with: chain.verifier) {
        case .valid: break
        case .invalid: return .signatureFailure
        case let .error(message): return .retryableFailure(message)
        }
        guard let kind = requested ?? envelope.shapeKind, envelope.isKind(kind) else {
            return .wrongPayloadType(expected: requested, actual: envelope.shapeKind)
        }
        if let rejection: JWSVerificationResult<Value> = checkApp(envelope, kind: kind) { return rejection }
        guard let signingMilliseconds = envelope.signingMilliseconds(for: kind) else {
            return .invalidFormat(.missingSignedDate)
        }
        switch decoded.value {
        case let .failure(problem):
            return .invalidFormat(problem)
        case let .success(value):
            return .verified(VerifiedJWS(
                payload: payload, value: value, signedDate: Date(timeIntervalSince1970: signingMilliseconds / 1000),
                environment: configuration.environment, bundleId: configuration.bundleId, kind: kind))
        }
    }
}
