import Foundation
import StoreExports
import Testing
@testable import ReportImport

/// Google's `Currency Conversion Rate` becomes the month's fx_rate: the rate of the month's latest transaction per pair.
@Suite struct GoogleEarningsFXTests {
    // Shaped like the real earnings rows docs/store-exports.md quotes (columns, date and time format, rate with 6 decimals).
    static let csv = """
        Description,Transaction Date,Transaction Time,Tax Type,Transaction Type,Refund Type,Product Title,Product id,Product Type,Sku Id,Hardware,Buyer Country,Buyer State,Buyer Postal Code,Buyer Currency,Amount (Buyer Currency),Currency Conversion Rate,Merchant Currency,Amount (Merchant Currency),Base Plan ID,Offer ID,Group ID,First USD 1M Eligible,Service Fee %,Fee Description,Promotion ID
        GPA.3302-2312-6140-38722..2,"Nov 30, 2019",11:29:44 PM PST,,Charge,,Premium (App),com.example,1,premium,a15,DK,,6855,DKK,22.96,0.149370,USD,3.43,monthly,,4991888149209182909,Yes,,,
        GPA.3302-2312-6140-38723,"Nov 1, 2019",3:29:44 AM PDT,,Charge,,Premium (App),com.example,1,premium,a15,DK,,6855,DKK,22.96,0.150000,USD,3.44,monthly,,4991888149209182909,Yes,,,
        GPA.3302-2312-6140-38724,"Nov 2, 2019",3:29:44 AM PDT,,Charge,,Premium (App),com.example,1,premium,a15,US,KY,40202,USD,4.99,1.000000,USD,4.99,monthly,,4991888149209182909,Yes,,,
        GPA.3302-2312-6140-38725,"Nov 3, 2019",3:29:44 AM PST,,Charge,,Premium (App),com.example,1,premium,redfin,JP,東京都,100-0001,JPY,450.00,0.006700,USD,3.02,monthly,,4991888149209182909,Yes,,,

        """

    @Test func theMonthsLatestRatePerCurrencyPair() throws {
        let rows = try GoogleEarningsParser.parse(Array(Self.csv.utf8), file: "earnings_201911_1-0.csv")
        let rates = FXRateSources.googleEarnings(rows, month: "2019-11")
        #expect(rates.map { "\($0.month) \($0.from)>\($0.to) \($0.rate) \($0.source)" } == [
            "2019-11-01 DKK>USD 0.149370 google_earnings",
            "2019-11-01 JPY>USD 0.006700 google_earnings",
        ])
        #expect(FXRateSources.googleEarnings(rows, month: "").isEmpty)
    }

    /// The import reads rows in place (`GoogleEarningsReading`, the rates matched by their bytes): it finds the rates
    /// the whole-file parser's rows give, ties going to the later line, a pair seen again replacing its rate only when
    /// later.
    @Test func rowsReadInPlaceGiveTheParsersRates() throws {
        let extra = """
            GPA.3302-2312-6140-38726,"Nov 3, 2019",3:29:44 AM PST,,Charge,,Premium (App),com.example,1,premium,redfin,JP,東京都,100-0001,JPY,450.00,0.006800,USD,3.06,monthly,,4991888149209182909,Yes,,,
            GPA.3302-2312-6140-38727,"Nov 2, 2019",3:29:44 AM PST,,Charge,,Premium (App),com.example,1,premium,redfin,JP,東京都,100-0001,JPY,450.00,0.006900,USD,3.10,monthly,,4991888149209182909,Yes,,,
            GPA.3302-2312-6140-38728,"Nov 2, 2019",3:29:44 AM PST,,Charge,,Premium (App),com.example,1,premium,a15,DK,,6855,DKK,22.96,0.140000,EUR,3.00,monthly,,4991888149209182909,Yes,,,
            GPA.3302-2312-6140-38729,"Nov 4, 2019",3:29:44 AM PST,,Charge,,Premium (App),com.example,1,premium,a15,DK,,6855,DKK,22.96,0.130000,EUR,2.99,monthly,,4991888149209182909,Yes,,,

            """
        let text = Self.csv + extra
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("earnings_201911_1-0.csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let tally = try GoogleEarningsReading.read(path) { _ in }
        let parsed = FXRateSources.googleEarnings(try GoogleEarningsParser.parse(Array(text.utf8), file: "earnings_201911_1-0.csv"),
                                                  month: "2019-11")
        let read = tally.rates.rates(month: "2019-11")
        #expect(read == parsed)
        #expect(read.map { "\($0.from)>\($0.to) \($0.rate)" } == ["DKK>EUR 0.130000", "DKK>USD 0.149370", "JPY>USD 0.006800"])
    }
}
