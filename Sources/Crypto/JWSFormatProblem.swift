/// Why a signed payload is not a well-formed Apple JWS.
public enum JWSFormatProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not exactly three dot-separated parts; carries the number found.
    case partCount(Int)
    /// A part ("header", "payload", "signature", "x5c") is not valid base64 of its kind.
    case base64(part: String)
    /// The header is not a JSON object with string `alg` and string-array `x5c`.
    case headerJSON(String)
    /// `alg` is missing or not ES256.
    case unsupportedAlgorithm(String?)
    /// The header has no `x5c`.
    case missingCertificateChain
    /// `x5c` does not hold exactly three certificates; carries the number found.
    case certificateCount(Int)
    /// The payload is not a JSON object with the expected field types.
    case payloadJSON(String)
    /// The payload has no `signedDate` (nor, for an app transaction, `receiptCreationDate`); reported only after the
    /// chain (validated at the current time), the signature, the kind and the app checked out.
    case missingSignedDate
    /// Everything verified, but the payload does not decode as the caller's type.
    case payloadDecoding(String)

    /// A stable snake_case code for logs, metrics and tests.
    public var code: String {
        switch self {
        case .partCount: return "part_count"
        case .base64: return "base64"
        case .headerJSON: return "header_json"
        case .unsupportedAlgorithm: return "unsupported_algorithm"
        case .missingCertificateChain: return "missing_x5c"
        case .certificateCount: return "x5c_count"
        case .payloadJSON: return "payload_json"
        case .missingSignedDate: return "missing_signed_date"
        case .payloadDecoding: return "payload_decoding"
        }
    }

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case let .partCount(count): return "expected 3 dot-separated parts, found \(count)"
        case let .base64(part): return "the \(part) is not valid base64"
        case let .headerJSON(detail): return "the header is not valid JSON: \(detail)"
        case let .unsupportedAlgorithm(alg): return "alg must be ES256, found \(alg ?? "none")"
        case .missingCertificateChain: return "the header has no x5c certificate chain"
        case let .certificateCount(count): return "x5c must hold 3 certificates, found \(count)"
        case let .payloadJSON(detail): return "the payload is not valid JSON: \(detail)"
        case .missingSignedDate: return "the payload has no signedDate"
        case let .payloadDecoding(detail): return "the verified payload does not decode: \(detail)"
        }
    }
}
