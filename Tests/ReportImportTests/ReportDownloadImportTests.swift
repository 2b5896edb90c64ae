import AppStore
import Crypto
import Foundation
import GooglePlay
import HTTP
import HTTPServer
import JobKit
import ReportImport
import SimulatorFixtures
import StoreAuth
import RateLimiting
import StoreCalls
import StoreSimulator
import Testing
import WorldGen

/// `import-exports --download --period` against the store simulator on loopback (real libcurl): App Store Connect
/// finance and sales reports with the team JWT, Apple's "no sales" 404 as an empty day, the Play bucket's zips;
/// the downloaded files then import like local ones.
@Suite(.serialized) struct ReportDownloadImportTests {
    /// A generated world's reports served by a simulator, and download sources pointed at it.
    final class Served {
        let server: LoopbackHTTPServer
        let reports: StoreReportSet
        let sources: ReportDownloadSources
        let root: URL

        /// The files `extraFiles` names for the world's reports (a path under `reports/` → its bytes) are served beside them.
        init(extraFiles: (StoreReportSet) -> [String: [UInt8]] = { _ in [:] }) throws {
            let world = try World.generate(WorldOptions(seed: 19, subscriptions: 300, months: 3))
            root = FileManager.default.temporaryDirectory.appendingPathComponent("report-download-\(getpid())")
            try? FileManager.default.removeItem(at: root)
            reports = try StoreReports.write(world, to: root)
            var served = Array(reports.files.keys)
            for (path, bytes) in extraFiles(reports) {
                try Data(bytes).write(to: root.appendingPathComponent("reports/" + path))
                served.append(path)
            }
            let appleKey = try TestKeys.apple.get(), googleKey = try TestKeys.google.get()
            let simulator = try StoreSimulator(truth: TruthFixture.truth(reportFiles: served), configuration: SimulatorConfiguration(
                appleKey: AppStoreConnectKey(keyId: "KEY123", issuerId: "issuer-uuid", publicKeyPEM: try ES256Signer(privateKeyPEM: appleKey).publicKeyPEM()),
                googleAccount: GoogleServiceAccountIdentity(clientEmail: "pipeline@project.iam.gserviceaccount.com",
                                                            publicKeyPEM: try RS256Signer(privateKeyPEM: googleKey).publicKeyPEM()),
                rateLimits: RateLimitConfiguration(enabled: false), seed: 3, reportsFolder: root.appendingPathComponent("reports"),
                googleBucket: "pubsite_prod_rev_test"))
            server = try LoopbackHTTPServer(handler: simulator)
            try server.start()
            let base = "http://127.0.0.1:\(server.port)"
            let http = HTTPClient(configuration: HTTPClientConfiguration(timeouts: HTTPTimeouts(connect: 2, total: 5)))
            let executor = StoreCallExecutor(send: { request throws(HTTPError) in try http.send(request) }, limiter: { _ in nil },
                                             retryPolicy: RetryPolicy(base: 0.01, cap: 0.05, maxAttempts: 3), observer: nil)
            let tokens = try GoogleAccessTokenProvider(
                key: GoogleServiceAccountKey(privateKey: googleKey, clientEmail: "pipeline@project.iam.gserviceaccount.com", tokenURI: base + "/token"),
                executor: executor)
            sources = ReportDownloadSources(
                apple: AppStoreConnectReportsClient(baseURL: base, tokens: try AppStoreConnectTokenFactory(keyId: "KEY123", issuerId: "issuer-uuid",
                                                                                                         privateKeyPEM: appleKey),
                                                    executor: executor),
                appleVendorNumber: reports.appleVendorNumber, appleRegions: ["ZZ", "US"],
                google: GooglePlayClient(configuration: GooglePlayConfiguration(packageName: TruthFixture.packageName, publisherBaseURL: base,
                                                                                reportBucket: "pubsite_prod_rev_test"),
                                         tokens: tokens, executor: executor))
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }
    }

    @Test func aDownloadedMonthImportsLikeLocalFiles() throws {
        let served = try Served()
        let months = served.reports.files.keys.filter { $0.hasPrefix("google/earnings/") }
            .map { String($0.dropFirst("google/earnings/earnings_".count).prefix(6)) }.sorted()
        let month = try #require(months.dropFirst().first)
        let period = month.prefix(4) + "-" + month.suffix(2)
        let harness = try ImportHarness("download")
        let sources = served.sources
        let definition = ImportExports.definition(downloads: { _, _ in sources })
        let (code, counts, line) = try harness.run(["--download", "--period", String(period)], definition: definition)
        #expect(code == .succeeded, "\(line)")
        #expect(counts["google_files_downloaded"] == 2, "\(line)")
        #expect(counts["google_earnings_imported"] == 1 && counts["google_estimated_sales_imported"] == 1, "\(line)")
        #expect(counts["apple_financial_imported"] == 2, "ZZ and US: \(line)")
        let days = try #require(counts["apple_subscriber_imported"])
        #expect(days > 10 && counts["apple_files_downloaded"] == days + 2, "\(line)")
        // The world writes no Summary Sales and days without Apple events have no Subscriber file: Apple's 404
        // "no sales for the date" is an empty answer, not a failure. Every day of the month was asked for.
        let servedDays = served.reports.files.keys.filter { $0.hasPrefix("apple/sales/Subscriber_") && $0.contains("_\(month)") }.count
        let monthNumber = Int(month.suffix(2)) ?? 1, year = Int(month.prefix(4)) ?? 2000
        let daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][monthNumber - 1] + (monthNumber == 2 && year % 4 == 0 ? 1 : 0)
        // Subscription and Subscription Event reports are asked for every day too; the world writes none.
        #expect(days == servedDays && counts["apple_reports_empty"] == daysInMonth - days + 1 + 2 * daysInMonth, "\(line)")
        #expect(counts["files_rejected"] == nil, "\(line)")
        let mmyy = String(month.suffix(2) + month.dropFirst(2).prefix(2))
        let downloaded = try FileManager.default.contentsOfDirectory(atPath: harness.folder.path)
        #expect(downloaded.contains("\(served.reports.appleVendorNumber)_\(mmyy)_ZZ.txt.gz"), "\(downloaded.sorted())")

        // The same reports from the world's own folder are the same content: nothing new is imported.
        let local = served.root.appendingPathComponent("reports/apple/finance/\(served.reports.appleVendorNumber)_\(mmyy)_ZZ.txt")
        let (again, repeated, secondLine) = try harness.run(["--reports-dir", local.path], folder: false)
        #expect(again == .succeeded && repeated["apple_financial_unchanged"] == 1, "\(secondLine)")
    }

    /// Apple's Subscription and Subscription Event reports of a day are downloaded under their own names and import
    /// into their staging tables, row for row.
    @Test func subscriptionAndSubscriptionEventReportsAreDownloaded() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("StoreExportsTests/Fixtures/apple")
        let subscription = Array(try Data(contentsOf: fixtures.appendingPathComponent("Subscription_85000000_20251103.txt")))
        let events = Array(try Data(contentsOf: fixtures.appendingPathComponent("Subscription_Event_85000000_20251103.txt")))
        /// The second month of the world's reports, `YYYYMM`.
        func secondMonth(_ reports: StoreReportSet) -> String {
            reports.files.keys.filter { $0.hasPrefix("google/earnings/") }
                .map { String($0.dropFirst("google/earnings/earnings_".count).prefix(6)) }.sorted().dropFirst().first ?? ""
        }
        let served = try Served { reports in
            let day = secondMonth(reports) + "03", vendor = reports.appleVendorNumber
            return ["apple/sales/Subscription_\(vendor)_\(day).txt": subscription, "apple/sales/Subscription_Event_\(vendor)_\(day).txt": events]
        }
        let month = secondMonth(served.reports), day = month + "03"
        try #require(month.count == 6)
        let harness = try ImportHarness("download_subscription")
        let sources = served.sources
        let definition = ImportExports.definition(downloads: { _, _ in sources })
        let (code, counts, line) = try harness.run(["--download", "--period", String(month.prefix(4) + "-" + month.suffix(2))],
                                                   definition: definition)
        #expect(code == .succeeded, "\(line)")
        #expect(counts["apple_subscription_imported"] == 1 && counts["apple_subscription_event_imported"] == 1, "\(line)")
        let downloaded = try FileManager.default.contentsOfDirectory(atPath: harness.folder.path)
        let vendor = served.reports.appleVendorNumber
        #expect(downloaded.contains("Subscription_\(vendor)_\(day).txt.gz") && downloaded.contains("Subscription_Event_\(vendor)_\(day).txt.gz"),
                "\(downloaded.sorted())")
        func lines(_ bytes: [UInt8]) -> Int64 {
            Int64(String(decoding: bytes, as: UTF8.self).split(separator: "\n").count - 1)
        }
        #expect(try harness.scalar("SELECT count(*) AS n FROM apple_subscription_row") == lines(subscription))
        #expect(try harness.scalar("SELECT count(*) AS n FROM apple_subscription_event_row") == lines(events))
    }

    @Test func downloadNeedsAPeriod() throws {
        let harness = try ImportHarness("download_usage")
        let definition = ImportExports.definition(downloads: { _, _ in ReportDownloadSources(apple: nil, appleVendorNumber: nil, google: nil) })
        let (code, _, _) = try harness.run(["--download"], definition: definition)
        #expect(code == .usageOrConfiguration)
        let (bad, _, _) = try harness.run(["--download", "--period", "2026-13"], definition: definition)
        #expect(bad == .usageOrConfiguration)
    }

    @Test func connectTokensCarryTheTeamClaimsOnly() throws {
        let factory = try AppStoreConnectTokenFactory(keyId: "KEY123", issuerId: "issuer-uuid", privateKeyPEM: try TestKeys.apple.get())
        let token = try factory.makeToken(now: Date(timeIntervalSince1970: 1_800_000_000))
        let parts = token.split(separator: ".")
        #expect(parts.count == 3)
        var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while payload.count % 4 != 0 { payload += "=" }
        let json = try #require(Data(base64Encoded: payload))
        let claims = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(claims["aud"] as? String == "appstoreconnect-v1")
        #expect(claims["iss"] as? String == "issuer-uuid")
        #expect(claims["bid"] == nil)
        let lifetime = (claims["exp"] as? Int ?? 0) - (claims["iat"] as? Int ?? 0)
        #expect(lifetime > 0 && lifetime <= 1_200)
        #expect(throws: (any Error).self) {
            try AppStoreConnectTokenFactory(keyId: "KEY123", issuerId: "issuer-uuid", privateKeyPEM: try TestKeys.apple.get(), lifetimeSeconds: 1_201)
        }
    }
}
