/// Why a world cannot be generated or written.
public enum WorldError: Error, CustomStringConvertible, Sendable {
    case badOption(String)
    case projectionFailed(subscription: Int, event: String, reason: String)
    case io(String)

    /// A human message.
    public var description: String {
        switch self {
        case .badOption(let message): return message
        case .projectionFailed(let index, let event, let reason):
            return "projection of subscription #\(index) failed at \(event): \(reason)"
        case .io(let message): return message
        }
    }
}
