import Foundation
import JobKit

/// The settings of one `check-notifications` run.
public struct NotificationCheckSettings: Sendable, Equatable {
    /// How long to wait for Apple's delivery and for the TEST notification to reach inbound_webhook_event, seconds.
    public let timeoutSeconds: Double
    /// Pause between polls, seconds.
    public let pollSeconds: Double
    /// The newest Google RTDN may be at most this many hours old.
    public let googleMaxAgeHours: Int
    /// Which stores to check.
    public let checkApple: Bool
    public let checkGoogle: Bool

    /// The job's own options.
    public static let options: [JobOption] = [
        .value("timeout", placeholder: "seconds", help: "wait this long for the TEST notification to be stored (default 60)"),
        .value("poll", placeholder: "seconds", help: "pause between polls (default 1)"),
        .value("google-max-age-hours", placeholder: "n", help: "the newest Google RTDN may be n hours old (default 24)"),
        .value("only", placeholder: "apple|google", help: "check one store only"),
    ]

    /// Explicit settings.
    public init(timeoutSeconds: Double = 60, pollSeconds: Double = 1, googleMaxAgeHours: Int = 24, checkApple: Bool = true, checkGoogle: Bool = true) {
        self.timeoutSeconds = timeoutSeconds
        self.pollSeconds = pollSeconds
        self.googleMaxAgeHours = googleMaxAgeHours
        self.checkApple = checkApple
        self.checkGoogle = checkGoogle
    }

    /// Reads the options; bad values are usage errors.
    public init(_ arguments: JobArguments) throws {
        func positive(_ name: String, _ fallback: Double) throws -> Double {
            guard let text = arguments.values[name] else { return fallback }
            guard let value = Double(text), value > 0 else { throw JobError.usage("--\(name) must be a positive number, not '\(text)'") }
            return value
        }
        let only = arguments.values["only"]
        guard only == nil || only == "apple" || only == "google" else { throw JobError.usage("--only is apple or google, not '\(only ?? "")'") }
        self.init(timeoutSeconds: try positive("timeout", 60), pollSeconds: try positive("poll", 1),
                  googleMaxAgeHours: Int(try positive("google-max-age-hours", 24)),
                  checkApple: only != "google", checkGoogle: only != "apple")
    }
}
