import Foundation
import HTTP

/// App Store Connect report downloads, served from the truth's report files under the names the stores use.
///
/// Mapping (relative to `reports/`; the file may be plain text, or already gzip with a `.gz` suffix):
/// - financeReports → `apple/finance/<vendorNumber>_<MMYY>_<regionCode>.txt`, e.g. `apple/finance/85012345_1225_ZZ.txt`
///   (`reportDate` is the API's fiscal `YYYY-MM`; `MMYY` the calendar month the period is named after: fiscal
///   2026-03 is December 2025, `1225`);
/// - salesReports SUBSCRIBER → `apple/sales/Subscriber_<vendorNumber>_<YYYYMMDD>.txt`; SUBSCRIPTION →
///   `apple/sales/Subscription_<vendorNumber>_<YYYYMMDD>.txt`; SUBSCRIPTION_EVENT →
///   `apple/sales/Subscription_Event_<vendorNumber>_<YYYYMMDD>.txt`; SALES → `apple/sales/S_<F>_<vendorNumber>_<date>.txt`
///   with F the frequency's letter (D, W, M, Y) and the date's digits.
/// A report that does not exist answers App Store Connect's 404 "There were no sales for the date specified."
enum AppStoreConnectReportsAPI {
    /// GET /v1/financeReports?filter[…]
    static func finance(_ context: RequestContext, files: ReportFiles) -> HTTPResponse {
        let v: [String]
        switch filters(["reportType", "regionCode", "reportDate", "vendorNumber"], context) {
        case let .success(values): v = values
        case let .failure(error): return error.response
        }
        guard let mmyy = fileMMYY(reportDate: v[2]) else {
            return Responses.appStoreConnect(400, code: "PARAMETER_ERROR.INVALID", title: "A parameter has an invalid value",
                                             detail: "'\(v[2])' is not a valid value for 'filter[reportDate]'; use YYYY-MM.")
        }
        return serve(["apple/finance/\(v[3])_\(mmyy)_\(v[1]).txt"], files: files)
    }

    /// The file name's `MMYY` of a fiscal `YYYY-MM` report date (period 01 is October of the previous year).
    static func fileMMYY(reportDate: String) -> String? {
        let parts = reportDate.split(separator: "-")
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let period = Int(parts[1]),
              (1...12).contains(period) else { return nil }
        let month = (period + 8) % 12 + 1
        let calendarYear = period <= 3 ? year - 1 : year
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return two(month) + two(calendarYear % 100)
    }

    /// GET /v1/salesReports?filter[…]
    static func sales(_ context: RequestContext, files: ReportFiles) -> HTTPResponse {
        let v: [String]
        switch filters(["reportType", "reportSubType", "frequency", "reportDate", "vendorNumber"], context) {
        case let .success(values): v = values
        case let .failure(error): return error.response
        }
        let date = v[3].filter { $0 != "-" }
        switch v[0] {
        case "SUBSCRIBER": return serve(["apple/sales/Subscriber_\(v[4])_\(date).txt"], files: files)
        case "SUBSCRIPTION": return serve(["apple/sales/Subscription_\(v[4])_\(date).txt"], files: files)
        case "SUBSCRIPTION_EVENT": return serve(["apple/sales/Subscription_Event_\(v[4])_\(date).txt"], files: files)
        default: break
        }
        let letter = v[2].prefix(1).uppercased()
        return serve(["apple/sales/S_\(letter)_\(v[4])_\(date).txt"], files: files)
    }

    /// The first candidate that exists (as `.txt` or `.txt.gz`), gzip-compressed.
    static func serve(_ candidates: [String], files: ReportFiles) -> HTTPResponse {
        for candidate in candidates {
            if let data = files.read(candidate + ".gz") ?? files.read(candidate) {
                return Responses.bytes(Gzip.isGzip(data) ? data : Gzip.wrap(data), contentType: "application/a-gzip")
            }
        }
        return Responses.appStoreConnect(404, code: "NOT_FOUND", title: "The specified resource does not exist",
                                         detail: "There were no sales for the date specified.")
    }

    /// The values of required `filter[name]` parameters, in order, or App Store Connect's 400 for the first missing one.
    static func filters(_ names: [String], _ context: RequestContext) -> Result<[String], ReportParameterError> {
        var values: [String] = []
        for name in names {
            guard let value = context.query("filter[\(name)]"), !value.isEmpty else {
                return .failure(ReportParameterError(response: Responses.appStoreConnect(
                    400, code: "PARAMETER_ERROR.REQUIRED", title: "A required parameter is missing.",
                    detail: "The parameter 'filter[\(name)]' is required.")))
            }
            values.append(value)
        }
        return .success(values)
    }
}

/// A report request's missing filter, as the response to send.
struct ReportParameterError: Error {
    let response: HTTPResponse
}
