/// Why the simulator could not start or parse its options.
public enum SimulatorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A command-line option or configuration value is malformed.
    case invalidOption(String)
    /// A key, certificate or file could not be loaded or written.
    case setup(String)

    /// A human-readable message.
    public var description: String {
        switch self {
        case let .invalidOption(message): return "invalid option: \(message)"
        case let .setup(message): return "simulator setup failed: \(message)"
        }
    }
}
