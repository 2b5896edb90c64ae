import Foundation

/// Why a store timestamp could not be parsed.
public enum TimestampError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    /// The text is not strict RFC 3339 (`YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)`).
    case invalidRFC3339(String, reason: String)
    /// The text is not an integer number of milliseconds since 1970.
    case invalidMilliseconds(String)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .invalidRFC3339(let text, let reason): return "\"\(text)\" is not an RFC 3339 timestamp: \(reason)"
        case .invalidMilliseconds(let text): return "\"\(text)\" is not milliseconds since 1970"
        }
    }

    /// Same as `description`.
    public var errorDescription: String? { description }
}
