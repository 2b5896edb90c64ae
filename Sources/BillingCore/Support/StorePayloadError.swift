import Foundation

/// Why a stored store payload could not be read.
public enum StorePayloadError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    /// A required field is absent.
    case missingField(String)
    /// A field is not valid base64.
    case invalidBase64(field: String)
    /// The bytes are not the expected JSON document.
    case invalidJSON(what: String, detail: String)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .missingField(let field): return "Store payload lacks \(field)"
        case .invalidBase64(let field): return "Store payload field \(field) is not valid base64"
        case .invalidJSON(let what, let detail): return "Store payload is not a valid \(what): \(detail)"
        }
    }

    /// Same as `description`.
    public var errorDescription: String? { description }
}
