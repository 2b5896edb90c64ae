import AppStore
import Foundation
import GooglePlay
import JobKit
import Postgres
import StoreAccess

/// Where `import-exports --download` fetches reports: App Store Connect (with the vendor number and the
/// finance-report regions to ask for) and the Google Play report bucket. Either may be absent (that store is skipped).
public struct ReportDownloadSources: Sendable {
    /// App Store Connect report downloads.
    public let apple: AppStoreConnectReportsClient?
    /// The vendor number the Apple requests and file names carry.
    public let appleVendorNumber: String?
    /// Finance-report regions to download (`ZZ`, the consolidated report, by default).
    public let appleRegions: [String]
    /// The Play Console report bucket's client.
    public let google: GooglePlayClient?

    /// Wraps the sources.
    public init(apple: AppStoreConnectReportsClient?, appleVendorNumber: String?, appleRegions: [String] = ["ZZ"],
                google: GooglePlayClient?) {
        self.apple = apple
        self.appleVendorNumber = appleVendorNumber
        self.appleRegions = appleRegions
        self.google = google
    }

    /// Builds the sources from the environment and the database (shared rate limits). Tests point them at the simulator.
    public typealias Factory = @Sendable (JobEnvironment, PostgresConfiguration) throws -> ReportDownloadSources

    /// The production factory: `StoreSettings.read` and `StoreClients`; `APPLE_REPORT_REGIONS` (comma-separated,
    /// default `ZZ`) names the finance-report regions.
    public static let fromEnvironment: Factory = { environment, database in
        let settings = try StoreSettings.read(environment)
        let clients = try StoreClients(settings: settings, database: database)
        let regions = (environment.optional("APPLE_REPORT_REGIONS") ?? "ZZ").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return ReportDownloadSources(apple: clients.appleReports, appleVendorNumber: settings.apple?.vendorNumber,
                                     appleRegions: regions, google: settings.google?.reportBucket == nil ? nil : clients.google)
    }
}
