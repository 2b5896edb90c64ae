import AppStore
import Foundation
import GooglePlay
import JobKit
import StoreExports

/// Downloads one month's report files into a folder, named as the stores name them, so they import like local files:
/// Apple's Financial Reports of the fiscal period named after the month (`<vendor>_<MMYY>_<region>.txt.gz`), its
/// Subscriber, Subscription and Subscription Event reports of every calendar day (`Subscriber_<vendor>_<YYYYMMDD>.txt.gz`,
/// `Subscription_<vendor>_<YYYYMMDD>.txt.gz`, `Subscription_Event_<vendor>_<YYYYMMDD>.txt.gz`) and the monthly Summary
/// Sales (`S_M_<vendor>_<YYYYMM>.txt.gz`); Google's earnings and estimated-sales zips of the month from the report bucket.
/// Apple's "no sales for the date" answer is an empty day: counted, nothing written.
public struct ReportDownloader {
    /// The clients.
    public let sources: ReportDownloadSources
    /// Where the files are written.
    public let folder: URL

    /// A downloader writing into `folder`.
    public init(sources: ReportDownloadSources, folder: URL) {
        self.sources = sources
        self.folder = folder
    }

    /// What a download did: files written and Apple's empty answers, per store.
    public struct Tally: Sendable, Equatable {
        /// Apple report files written.
        public var appleFiles = 0
        /// Apple requests answered "no sales for the date".
        public var appleEmpty = 0
        /// Google zips written.
        public var googleFiles = 0
    }

    /// The calendar month `YYYY-MM` as (year, month), or nil.
    public static func month(_ period: String) -> (year: Int, month: Int)? {
        let parts = period.split(separator: "-")
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let month = Int(parts[1]),
              (1...12).contains(month), (2000...2099).contains(year) else { return nil }
        return (year, month)
    }

    /// Downloads `period` (`YYYY-MM`); throws the first failing call (files already written stay).
    public func download(period: String) throws -> Tally {
        guard let (year, month) = Self.month(period) else { throw JobError.usage("--period must be YYYY-MM, not '\(period)'") }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var tally = Tally()
        if let apple = sources.apple, let vendor = sources.appleVendorNumber {
            try downloadApple(apple, vendor: vendor, year: year, month: month, into: &tally)
        }
        if let google = sources.google {
            let compact = String(format: "%04d%02d", year, month)
            for prefix in ["earnings/earnings_\(compact)_", "sales/salesreport_\(compact)"] {
                for object in try google.reportObjects(prefix: prefix) {
                    let name = String(object.name.split(separator: "/").last ?? "")
                    guard !name.isEmpty else { continue }
                    try write(try google.downloadReport(name: object.name), name)
                    tally.googleFiles += 1
                }
            }
        }
        return tally
    }

    func downloadApple(_ apple: AppStoreConnectReportsClient, vendor: String, year: Int, month: Int, into tally: inout Tally) throws {
        func fetch(_ query: AppStoreConnectReportQuery, _ name: String) throws {
            if let body = try apple.download(query) {
                try write(body, name)
                tally.appleFiles += 1
            } else {
                tally.appleEmpty += 1
            }
        }
        if let fiscal = FiscalPeriod(namedMonth: month, year: year) {
            for region in sources.appleRegions {
                try fetch(.finance(reportType: "FINANCIAL", regionCode: region, reportDate: fiscal.reportDate, vendorNumber: vendor),
                          "\(vendor)_\(fiscal.fileMMYY)_\(region).txt.gz")
            }
        }
        var day = CalendarDate(year: year, month: month, day: 1)
        while let current = day, current.month == month {
            let iso = current.description, digits = iso.filter { $0 != "-" }
            try fetch(.subscriber(day: iso, vendorNumber: vendor), "Subscriber_\(vendor)_\(digits).txt.gz")
            try fetch(.subscription(day: iso, vendorNumber: vendor), "Subscription_\(vendor)_\(digits).txt.gz")
            try fetch(.subscriptionEvent(day: iso, vendorNumber: vendor), "Subscription_Event_\(vendor)_\(digits).txt.gz")
            day = current.adding(days: 1)
        }
        let monthText = String(format: "%04d-%02d", year, month)
        try fetch(.summarySales(month: monthText, vendorNumber: vendor), "S_M_\(vendor)_\(monthText.filter { $0 != "-" }).txt.gz")
    }

    /// Writes a downloaded file under a temporary name, then puts it in place, mode 0640 (`OutputFile`).
    func write(_ data: Data, _ name: String) throws {
        let temporary = folder.appendingPathComponent(".\(name).download-\(getpid())")
        try FileSystemError.perform("write", temporary.path) { try data.write(to: temporary) }
        try OutputFile.place(temporary, at: folder.appendingPathComponent(name))
    }
}
