import Archive
import Foundation
@testable import Reconciliation
import StoreExports
import Testing

/// Rows parsed on their own thread reach the caller in file order, in batches, and a defective row is thrown with
/// its line after every row before it — as the stream gives them without the thread.
@Suite struct EarningsRowThreadTests {
    static let header = "Description,Transaction Date,Transaction Time,Tax Type,Transaction Type,Refund Type,Product Title,"
        + "Product id,Product Type,Sku Id,Hardware,Buyer Country,Buyer State,Buyer Postal Code,Buyer Currency,"
        + "Amount (Buyer Currency),Currency Conversion Rate,Merchant Currency,Amount (Merchant Currency),Base Plan ID,"
        + "Offer ID,Group ID,First USD 1M Eligible,Service Fee %,Fee Description,Promotion ID"

    /// A zip of `rows` charges (three batches and a bit), the row at line `broken` (if any) with a bad amount.
    static func zip(rows: Int, broken: Int? = nil) throws -> String {
        var csv = header + "\n"
        for index in 0..<rows {
            let line = index + 2
            let amount = line == broken ? "4,99x" : "4.99"
            csv += "GPA.\(3_300 + index)-0000-0000-00001,\"Oct 3, 2026\",11:02:10 AM PDT,,Charge,,Premium,premium_monthly,1,"
                + "monthly,,DE,,,EUR,\(amount),1.0,EUR,\(amount),monthly,,1,Yes,15,SUBSCRIPTIONS,\n"
        }
        let bytes = try ZipArchive.make([("PlayApps_202610.csv", Array(csv.utf8))], mtime: 1_790_000_000)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rows-\(UUID().uuidString).zip").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func rowsArriveInFileOrder() throws {
        let rows = EarningsRowThread.batchSize * 3 + 17
        let path = try Self.zip(rows: rows)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var threaded: [GoogleEarningsEntry] = [], plain: [GoogleEarningsEntry] = []
        let read = try EarningsRowThread.read(path: path, file: "rows.zip") { threaded += $0 }
        try GoogleEarningsStream.read(path: path, file: "rows.zip") { plain.append($0) }
        #expect(read.rows == rows && read.member == "PlayApps_202610.csv")
        #expect(threaded == plain && threaded.count == rows)
    }

    @Test func aDefectiveRowIsThrownAfterTheRowsBeforeIt() throws {
        let broken = EarningsRowThread.batchSize * 2 + 5
        let path = try Self.zip(rows: EarningsRowThread.batchSize * 3, broken: broken)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var seen = 0
        let error = #expect(throws: StoreReportError.self) {
            try EarningsRowThread.read(path: path, file: "rows.zip") { seen += $0.count }
        }
        let plain = #expect(throws: StoreReportError.self) { try GoogleEarningsStream.read(path: path, file: "rows.zip") { _ in } }
        #expect(error?.line == broken && error == plain, "\(String(describing: error))")
        #expect(seen == broken - 2, "every row before the defective one, none after")
    }
}
