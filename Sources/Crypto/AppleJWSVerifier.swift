import Foundation

/// Verifies App Store signed payloads (transactions, renewal infos, notifications) the way Apple's library does.
///
/// Checks: three base64url parts; `alg` ES256; three `x5c` certificates, of which only x5c[0] (leaf) and
/// x5c[1] (intermediate) are used; RFC 5280 path validation to a configured root at the payload's
/// `signedDate`; Apple's marker OIDs; the leaf's P-256 signature; then bundleId, appAppleId (production)
/// and environment. Safe to share between threads; validated chains are cached.
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

    /// Verifies `jws` and decodes its payload as `type`.
    public func verify<Value: Decodable & Sendable>(_ jws: String, as type: Value.Type) -> JWSVerificationResult<Value> {
        var text = jws
        return text.withUTF8 { verify(utf8: $0, as: type) }
    }

    /// Verifies `jws` and decodes its payload as a generic JSON value.
    public func verify(_ jws: String) -> JWSVerificationResult<JSONValue> {
        verify(jws, as: JSONValue.self)
    }

    /// Verifies a `signedRenewalInfo`: Apple's renewal info carries no bundleId or appAppleId, so, as in
    /// Apple's own verifier, only its environment is checked against the configuration.
    public func verifyRenewalInfo<Value: Decodable & Sendable>(_ jws: String, as type: Value.Type) -> JWSVerificationResult<Value> {
        var text = jws
        return text.withUTF8 { verify(utf8: $0, as: type, appFieldsChecked: false) }
    }

    func verify<Value: Decodable & Sendable>(utf8 jws: UnsafeBufferPointer<UInt8>, as type: Value.Type,
                                             appFieldsChecked: Bool = true) -> JWSVerificationResult<Value> {
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
        guard let signedDate = decoded.envelope.signedDate, signedDate.isFinite else {
            return .invalidFormat(.missingSignedDate)
        }
        guard let time = Int(exactly: (signedDate / 1000).rounded(.down)) else {
            return .invalidFormat(.payloadJSON("signedDate \(signedDate) is out of range"))
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
        if let rejection: JWSVerificationResult<Value> = checkApp(decoded.envelope, appFieldsChecked: appFieldsChecked) { return rejection }
        switch decoded.value {
        case let .failure(problem):
            return .invalidFormat(problem)
        case let .success(value):
            return .verified(VerifiedJWS(
                payload: payload, value: value, signedDate: Date(timeIntervalSince1970: signedDate / 1000),
                environment: configuration.environment, bundleId: configuration.bundleId))
        }
    }
}
