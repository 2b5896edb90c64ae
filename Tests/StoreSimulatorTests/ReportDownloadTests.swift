import Crypto
import Foundation
import HTTP
import Testing
@testable import StoreSimulator

@Suite("Report downloads: App Store Connect and Cloud Storage")
struct ReportDownloadTests {
    static let files: [String: Data] = [
        "apple/finance/8_1225_ZZ.txt": Data("Start Date\tEnd Date\n02/01/2026\t02/28/2026\n".utf8),
        "apple/sales/Subscriber_8_20260227.txt.gz": Gzip.wrap(Data("Event Date\tApp Name\n".utf8)),
        "google/earnings/earnings_202602_123-0.zip": Data("PK-earnings".utf8),
        "google/earnings/earnings_202601_123-0.zip": Data("PK-earnings-jan".utf8),
        "google/sales/salesreport_202602.zip": Data("PK-sales".utf8),
    ]

    /// A harness over a temporary reports folder holding `files`.
    static func harness() throws -> (SimulatorHarness, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sim-reports-\(UUID().uuidString)")
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return (try SimulatorHarness(reportsFolder: folder, reportFiles: Array(files.keys)), folder)
    }

    static func gunzip(_ data: Data) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        process.arguments = ["-dc"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(data)
        try input.fileHandleForWriting.close()
        let result = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: result, as: UTF8.self)
    }

    @Test("financeReports and salesReports map filters to files and answer gzip")
    func appleReports() throws {
        let (harness, folder) = try Self.harness()
        defer { try? FileManager.default.removeItem(at: folder) }
        let finance = harness.send("GET", "/v1/financeReports?filter[regionCode]=ZZ&filter[reportDate]=2026-03&filter[reportType]=FINANCIAL&filter[vendorNumber]=8")
        #expect(finance.status == 200)
        #expect(finance.header("Content-Type") == "application/a-gzip")
        #expect(try Self.gunzip(finance.body) == "Start Date\tEnd Date\n02/01/2026\t02/28/2026\n")
        for query in ["filter[version]=1_3&", ""] {
            let sales = harness.send("GET", "/v1/salesReports?\(query)filter[frequency]=DAILY&filter[reportType]=SUBSCRIBER&filter[reportSubType]=DETAILED&filter[reportDate]=2026-02-27&filter[vendorNumber]=8")
            #expect(sales.status == 200)
            #expect(try Self.gunzip(sales.body) == "Event Date\tApp Name\n")
        }
        let none = harness.send("GET", "/v1/salesReports?filter[frequency]=DAILY&filter[reportType]=SUBSCRIBER&filter[reportSubType]=DETAILED&filter[reportDate]=2026-02-28&filter[vendorNumber]=8")
        #expect(none.status == 404)
        #expect(none.json["errors"]?.arrayValue?.first?["detail"] == .string("There were no sales for the date specified."))
        let missing = harness.send("GET", "/v1/financeReports?filter[regionCode]=ZZ")
        #expect(missing.status == 400)
    }

    @Test("Cloud Storage lists by prefix with pages and downloads by encoded name")
    func storage() throws {
        let (harness, folder) = try Self.harness()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = "/storage/v1/b/pubsite_prod_rev_simulator/o"
        let all = harness.send("GET", "\(base)?prefix=earnings/").json
        #expect(all["items"]?.arrayValue?.compactMap { $0.text("name") } == ["earnings/earnings_202601_123-0.zip", "earnings/earnings_202602_123-0.zip"])
        #expect(all["items"]?.arrayValue?.first?["size"] == .string("15"))
        var names: [String] = []
        var url = "\(base)?maxResults=2"
        for _ in 0..<5 {
            let page = harness.send("GET", url).json
            names += page["items"]?.arrayValue?.compactMap { $0.text("name") } ?? []
            guard let token = page["nextPageToken"]?.stringValue else { break }
            url = "\(base)?maxResults=2&pageToken=\(token)"
        }
        #expect(names.count == 3)
        let download = harness.send("GET", "\(base)/sales%2Fsalesreport_202602.zip?alt=media")
        #expect(download.status == 200)
        #expect(download.body == Data("PK-sales".utf8))
        #expect(harness.send("GET", "\(base)/sales%2Fnothing.zip?alt=media").status == 404)
        #expect(harness.send("GET", "/storage/v1/b/other-bucket/o").status == 404)
    }
}
