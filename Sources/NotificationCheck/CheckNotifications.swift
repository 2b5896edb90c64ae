import AppStore
import Foundation
import JobKit
import Postgres
import StoreAccess

/// The `check-notifications` job: asks whether store notifications reach inbound_webhook_event (Apple: a TEST
/// notification end to end; Google: the newest RTDN's age), prints one verdict line per store, and exits 0 when
/// both are healthy, 3 when one is not, 1 when a store call failed, 2 on bad options or configuration.
public enum CheckNotifications {
    /// Builds the Apple requester for a run; nil when Apple is not configured.
    public typealias Factory = @Sendable (JobEnvironment, PostgresConfiguration) throws -> (any TestNotificationRequester)?

    /// The production factory: the App Store client from `StoreSettings.read`.
    public static let fromEnvironment: Factory = { environment, database in
        try StoreClients(settings: try StoreSettings.read(environment), database: database).apple
    }

    /// The job definition used by `Jobs/check-notifications`; `output` receives the verdict lines.
    public static func definition(apple: @escaping Factory = fromEnvironment,
                                  output: @escaping @Sendable (String) -> Void = { print($0) }) -> JobDefinition {
        JobDefinition(name: "check-notifications",
                      summary: "check that store notifications reach inbound_webhook_event (Apple TEST notification; Google RTDN age)",
                      options: NotificationCheckSettings.options) { context in
            let settings = try NotificationCheckSettings(context.arguments)
            var verdicts: [NotificationVerdict] = []
            if settings.checkApple {
                guard let requester = try apple(context.environment, context.database.configuration) else {
                    throw JobError.configuration("Apple is not configured (use --only google to check Google alone)")
                }
                do {
                    verdicts.append(try AppleNotificationCheck(requester: requester, database: context.database, settings: settings).run())
                } catch let error as JobError {
                    throw error
                } catch {
                    throw JobError.failed("apple: the test notification request failed: \(error)")
                }
            }
            if settings.checkGoogle {
                verdicts.append(try GoogleNotificationCheck(database: context.database, asOf: context.asOf,
                                                            maxAgeHours: settings.googleMaxAgeHours).run())
            }
            for verdict in verdicts {
                output(verdict.line)
                context.setCount("\(verdict.store)_healthy", verdict.healthy ? 1 : 0)
            }
            let unhealthy = verdicts.filter { !$0.healthy }
            guard unhealthy.isEmpty else {
                throw JobError.thresholdBreached(unhealthy.map(\.line).joined(separator: "; "))
            }
        }
    }
}
