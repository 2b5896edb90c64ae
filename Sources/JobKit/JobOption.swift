/// A job-specific command-line option, declared by the job and shown in `--help`.
public struct JobOption: Sendable {
    /// Whether the option is a bare flag or takes a value.
    public enum Kind: Sendable { case flag, value(placeholder: String) }

    public let name: String
    public let kind: Kind
    public let help: String

    /// A flag such as `--status`.
    public static func flag(_ name: String, help: String) -> JobOption {
        JobOption(name: name, kind: .flag, help: help)
    }

    /// An option with a value such as `--since 2026-01-01`.
    public static func value(_ name: String, placeholder: String, help: String) -> JobOption {
        JobOption(name: name, kind: .value(placeholder: placeholder), help: help)
    }
}
