import Foundation
import JobKit

/// The retention periods of one `retention` run, from `--sandbox-days` / `--payload-days` or the environment.
public struct RetentionSettings: Sendable, Equatable {
    /// Sandbox and test-purchase rows are deleted this many days after their last store activity.
    public let sandboxDays: Int
    /// Raw payloads (JWS, purchase tokens) older than this many days are redacted.
    public let payloadDays: Int

    /// Default for `--sandbox-days`: a month of test data stays for debugging.
    public static let defaultSandboxDays = 30
    /// Default for `--payload-days`: 400 days keep a full fiscal year plus a quarter of raw payloads for audit and
    /// for recovering from the stores' histories (Apple keeps 180 days).
    public static let defaultPayloadDays = 400

    /// Explicit periods.
    public init(sandboxDays: Int, payloadDays: Int) {
        self.sandboxDays = sandboxDays
        self.payloadDays = payloadDays
    }

    /// Reads the options, then `RETENTION_SANDBOX_DAYS` / `RETENTION_PAYLOAD_DAYS`, then the defaults.
    public init(_ arguments: JobArguments, _ environment: JobEnvironment) throws {
        sandboxDays = try Self.days(arguments.values["sandbox-days"] ?? environment.optional("RETENTION_SANDBOX_DAYS"),
                                    name: "--sandbox-days", default: Self.defaultSandboxDays)
        payloadDays = try Self.days(arguments.values["payload-days"] ?? environment.optional("RETENTION_PAYLOAD_DAYS"),
                                    name: "--payload-days", default: Self.defaultPayloadDays)
    }

    private static func days(_ text: String?, name: String, default value: Int) throws -> Int {
        guard let text else { return value }
        guard let days = Int(text), days > 0 else { throw JobError.usage("\(name) must be a positive whole number of days, not '\(text)'") }
        return days
    }
}
