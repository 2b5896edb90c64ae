import BillingCore

/// The outcome of verifying one Apple JWS: the decoded payload, or exactly one reason it was rejected.
public enum JWSVerificationResult<Value: Sendable>: Sendable {
    /// Everything checked out.
    case verified(VerifiedJWS<Value>)
    /// The JWS is malformed; see the problem.
    case invalidFormat(JWSFormatProblem)
    /// The certificate chain is not a trusted Apple chain at `signedDate`.
    case invalidCertificate(JWSCertificateProblem)
    /// The leaf key does not verify the signature over `header.payload`.
    case signatureFailure
    /// The payload is not of the kind asked for (`expected` nil: the untyped check, whose payload names no single
    /// kind); `actual` is the one kind its fields show, nil when they show none or several.
    case wrongPayloadType(expected: ApplePayloadKind?, actual: ApplePayloadKind?)
    /// The payload belongs to another app.
    case wrongApp(JWSAppMismatch)
    /// The payload comes from another environment (or names none).
    case wrongEnvironment(expected: AppleEnvironment, actual: AppleEnvironment?)
    /// The check could not run (OpenSSL resource failure); trying again later may succeed.
    case retryableFailure(String)

    /// The verified payload, or nil when rejected.
    public var verified: VerifiedJWS<Value>? {
        if case let .verified(verified) = self { return verified }
        return nil
    }

    /// The decoded value, or nil when rejected.
    public var value: Value? { verified?.value }

    /// A stable code such as "verified" or "invalid_certificate.missing_leaf_oid", for logs and metrics.
    public var code: String {
        switch self {
        case .verified: return "verified"
        case let .invalidFormat(problem): return "invalid_format.\(problem.code)"
        case let .invalidCertificate(problem): return "invalid_certificate.\(problem.code)"
        case .signatureFailure: return "signature_failure"
        case .wrongPayloadType: return "wrong_payload_type"
        case let .wrongApp(mismatch): return "wrong_app.\(mismatch.code)"
        case .wrongEnvironment: return "wrong_environment"
        case .retryableFailure: return "retryable_failure"
        }
    }
}

extension JWSVerificationResult: Equatable where Value: Equatable {}

extension JWSVerificationResult: CustomStringConvertible {
    /// A human-readable message without payload contents.
    public var description: String {
        switch self {
        case let .verified(verified): return "verified (signedDate \(verified.signedDate))"
        case let .invalidFormat(problem): return "invalid format: \(problem)"
        case let .invalidCertificate(problem): return "invalid certificate: \(problem)"
        case .signatureFailure: return "the signature does not verify"
        case let .wrongPayloadType(expected, actual):
            return "wrong payload type: \(actual.map(String.init(describing:)) ?? "unrecognised"), expected \(expected.map(String.init(describing:)) ?? "one recognisable kind")"
        case let .wrongApp(mismatch): return "wrong app: \(mismatch)"
        case let .wrongEnvironment(expected, actual):
            return "wrong environment: \(actual?.rawValue ?? "missing"), expected \(expected)"
        case let .retryableFailure(message): return "retryable failure: \(message)"
        }
    }
}
