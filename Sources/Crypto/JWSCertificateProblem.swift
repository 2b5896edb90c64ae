/// Why the `x5c` certificates do not form a trusted Apple signing chain.
public enum JWSCertificateProblem: Sendable, Equatable, CustomStringConvertible {
    /// x5c[0] or x5c[1] is not a DER certificate.
    case unparsable(String)
    /// The intermediate lacks extension 1.2.840.113635.100.6.2.1.
    case missingIntermediateMarker
    /// The leaf lacks extension 1.2.840.113635.100.6.11.1.
    case missingLeafMarker
    /// A certificate in the path was expired or not yet valid at the payload's `signedDate`.
    case notValidAtSignedDate(String)
    /// The path does not lead to a configured root, or a signature/constraint in it is bad.
    case untrustedChain(String)
    /// OpenSSL accepted a path other than leaf → x5c[1] → configured root.
    case unexpectedPath(String)
    /// The leaf's key is not an EC P-256 key.
    case unsupportedKey(String)

    /// A stable snake_case code for logs, metrics and tests.
    public var code: String {
        switch self {
        case .unparsable: return "unparsable"
        case .missingIntermediateMarker: return "missing_intermediate_oid"
        case .missingLeafMarker: return "missing_leaf_oid"
        case .notValidAtSignedDate: return "not_valid_at_signed_date"
        case .untrustedChain: return "untrusted_chain"
        case .unexpectedPath: return "unexpected_path"
        case .unsupportedKey: return "unsupported_key"
        }
    }

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case let .unparsable(detail): return "a certificate does not parse: \(detail)"
        case .missingIntermediateMarker: return "the intermediate lacks Apple's OID 1.2.840.113635.100.6.2.1"
        case .missingLeafMarker: return "the leaf lacks Apple's OID 1.2.840.113635.100.6.11.1"
        case let .notValidAtSignedDate(detail): return "not valid at signedDate: \(detail)"
        case let .untrustedChain(detail): return "chain not trusted: \(detail)"
        case let .unexpectedPath(detail): return "unexpected certification path: \(detail)"
        case let .unsupportedKey(detail): return "leaf key unsupported: \(detail)"
        }
    }
}
