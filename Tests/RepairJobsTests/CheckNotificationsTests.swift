import Foundation
import HTTP
import HTTPServer
import JobKit
import NotificationCheck
import Postgres
import TestSupport
import Testing
import WorldGen

/// Stands in for the API server's App Store Server Notifications V2 endpoint: stores each `{"signedPayload"}` it is
/// sent in inbound_webhook_event under its notificationUUID (read from the JWS payload; the API server verifies it
/// first, which is not what is under test here). `mode` makes it fail the ways a real receiver does.
final class NotificationReceiver: HTTPHandler, @unchecked Sendable {
    enum Mode { case store, answer500, acceptWithoutStoring }
    private let lock = NSLock()
    private var currentMode = Mode.store
    private let configuration: PostgresConfiguration
    private(set) var received = 0

    init(configuration: PostgresConfiguration) { self.configuration = configuration }

    var mode: Mode {
        get { lock.withLock { currentMode } }
        set { lock.withLock { currentMode = newValue } }
    }

    func handle(_ request: HTTPRequest) -> HTTPServerAction {
        lock.withLock { received += 1 }
        switch mode {
        case .answer500: return .respond(HTTPResponse(status: 500))
        case .acceptWithoutStoring: return .respond(HTTPResponse(status: 200))
        case .store:
            guard let body = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any],
                  let signed = body["signedPayload"] as? String, let claims = Self.claims(signed),
                  let uuid = claims["notificationUUID"] as? String else { return .respond(HTTPResponse(status: 400)) }
            let environment = ((claims["data"] as? [String: Any])?["environment"] as? String) == "Sandbox" ? "SANDBOX" : "PRODUCTION"
            do {
                let db = try PostgresConnection(configuration: configuration)
                defer { db.close() }
                _ = try db.execute("""
                    INSERT INTO inbound_webhook_event (provider, provider_event_id, environment, verified, payload, processed_at)
                    VALUES ('APPLE', $1, $2, true, jsonb_build_object('signedPayload', $3::text), now())
                    """, [uuid, environment, signed])
                return .respond(HTTPResponse(status: 200))
            } catch {
                return .respond(HTTPResponse(status: 503))
            }
        }
    }

    /// The JWS's payload claims (base64url JSON), unverified.
    static func claims(_ jws: String) -> [String: Any]? {
        let parts = jws.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: text) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}

/// `check-notifications` over loopback: the simulator's Request a Test Notification delivers the TEST notification
/// to a receiver, Get Test Notification Status reports the attempt, and the job finds the stored row, or says why not.
@Suite(.serialized) struct CheckNotificationsTests {
    @Test func verdictsAndExitCodesForEachWayTheNotificationPathBreaks() throws {
        let name = "check_notifications"
        let receiver = NotificationReceiver(configuration: try TestDatabase.serverConfiguration().withDatabase(name))
        let receiverServer = try LoopbackHTTPServer(handler: receiver)
        try receiverServer.start()
        defer { receiverServer.stop() }
        let options = WorldOptions(seed: 17, subscriptions: 60, months: 3)
        let harness = try RequeryHarness(name: name, options: options, notificationURL: receiverServer.baseURL + "/store-notifications")
        defer { harness.server.stop(); harness.database.close() }
        let stores = harness.stores
        let apple: CheckNotifications.Factory = { environment, database in try stores(environment, database, { _ in }).apple }
        func run(_ arguments: [String]) -> (JobExitCode, [String]) {
            let lines = Lines()
            let (code, summary) = harness.run(CheckNotifications.definition(apple: apple, output: { lines.append($0) }),
                                              arguments + ["--as-of", PostgresTimestamp.iso8601(options.asOf), "--poll", "0.1"])
            return (code, lines.all + [summary])
        }

        // Healthy: delivered, stored, found.
        let (ok, okLines) = run(["--only", "apple", "--timeout", "5"])
        #expect(ok == .succeeded, "\(okLines)")
        #expect(okLines.contains { $0.hasPrefix("apple: OK — TEST ") && $0.contains("stored at") }, "\(okLines)")
        #expect(try RepairCheck.int(harness.database, """
            SELECT count(*)::int AS n FROM inbound_webhook_event WHERE provider = 'APPLE' AND payload ? 'signedPayload'
            """) == 1)

        // The receiver answers 500: Apple's attempt says so, and the job says where it broke.
        receiver.mode = .answer500
        let (refused, refusedLines) = run(["--only", "apple", "--timeout", "1"])
        #expect(refused == .thresholdBreached)
        #expect(refusedLines.contains { $0.hasPrefix("apple: FAIL") && $0.contains("UNSUCCESSFUL_HTTP_RESPONSE_CODE") }, "\(refusedLines)")

        // The receiver accepts but loses it: found missing after the timeout.
        receiver.mode = .acceptWithoutStoring
        let started = Date()
        let (lost, lostLines) = run(["--only", "apple", "--timeout", "1"])
        #expect(lost == .thresholdBreached)
        #expect(Date().timeIntervalSince(started) >= 1)
        #expect(lostLines.contains { $0.hasPrefix("apple: FAIL") && $0.contains("not in inbound_webhook_event") }, "\(lostLines)")

        // Google: the newest RTDN's age against the threshold.
        let newest = try #require(try harness.database.query(
            "SELECT max(received_at) AS t FROM inbound_webhook_event WHERE provider = 'GOOGLE' AND received_at <= $1", [options.asOf])
            .first?.decodeIfPresent(Date.self, "t"))
        let ageHours = Int(options.asOf.timeIntervalSince(newest) / 3_600)
        let (fresh, freshLines) = run(["--only", "google", "--google-max-age-hours", String(ageHours + 1)])
        #expect(fresh == .succeeded, "\(freshLines)")
        #expect(freshLines.contains { $0.hasPrefix("google: OK — newest RTDN") })
        _ = try harness.database.execute("DELETE FROM inbound_webhook_event WHERE provider = 'GOOGLE' AND received_at > $1::timestamptz - interval '2 hours'",
                                         [options.asOf])
        let (stale, staleLines) = run(["--only", "google", "--google-max-age-hours", "1"])
        #expect(stale == .thresholdBreached)
        #expect(staleLines.contains { $0.hasPrefix("google: FAIL") }, "\(staleLines)")

        #expect(run(["--only", "both"]).0 == .usageOrConfiguration)
    }
}

/// Output lines collected from a @Sendable closure.
final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ line: String) { lock.lock(); storage.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return storage }
}
