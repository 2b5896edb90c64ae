/// Why a signing, key-loading or certificate operation in `Crypto` failed.
public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An OpenSSL call failed; `message` is the text of OpenSSL's error queue (`ERR_get_error`).
    case openSSL(operation: String, message: String)
    /// A key was missing, of the wrong type or size, or could not be parsed.
    case invalidKey(String)
    /// A certificate could not be parsed or loaded.
    case invalidCertificate(String)
    /// A caller-supplied argument was out of range or malformed.
    case invalidArgument(String)
    /// A file could not be read.
    case unreadableFile(path: String, reason: String)
    /// A value could not be encoded as JSON.
    case encoding(String)

    /// A human-readable message; never contains key material.
    public var description: String {
        switch self {
        case let .openSSL(operation, message):
            return "OpenSSL \(operation) failed: \(message.isEmpty ? "no error text" : message)"
        case let .invalidKey(reason):
            return "invalid key: \(reason)"
        case let .invalidCertificate(reason):
            return "invalid certificate: \(reason)"
        case let .invalidArgument(reason):
            return "invalid argument: \(reason)"
        case let .unreadableFile(path, reason):
            return "cannot read \(path): \(reason)"
        case let .encoding(reason):
            return "JSON encoding failed: \(reason)"
        }
    }
}
