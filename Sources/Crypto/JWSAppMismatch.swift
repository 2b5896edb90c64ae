/// Which app identifier of a verified payload differs from the configuration.
public enum JWSAppMismatch: Sendable, Equatable, CustomStringConvertible {
    /// `bundleId` differs or is missing.
    case bundleId(expected: String, actual: String?)
    /// `appAppleId` differs, or is missing from a production notification.
    case appAppleId(expected: Int64, actual: Int64?)

    /// A stable snake_case code for logs, metrics and tests.
    public var code: String {
        switch self {
        case .bundleId: return "bundle_id"
        case .appAppleId: return "app_apple_id"
        }
    }

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case let .bundleId(expected, actual):
            return "bundleId \(actual ?? "missing") is not the configured \(expected)"
        case let .appAppleId(expected, actual):
            return "appAppleId \(actual.map(String.init) ?? "missing") is not the configured \(expected)"
        }
    }
}
