import Foundation
import HTTP

/// App Store Connect report downloads, served from the truth's report files.
///
/// Mapping (relative to `reports/`; the file may be plain text, or already gzip with a `.gz` suffix):
/// - financeReports → `apple/finance/<reportType>_<regionCode>_<reportDate>.txt`, e.g. `apple/finance/FINANCIAL_ZZ_2026-03.txt`
///   (`reportDate` is the API's fiscal `YYYY-MM`);
/// - salesReports → `apple/sales/<reportType>_<reportSubType>_<frequency>_<version>_<reportDate>.txt`, e.g.
///   `apple/sales/SUBSCRIBER_DETAILED_DAILY_1_3_2026-03-01.txt`; without `filter[version]` any version matches.
/// `filter[vendorNumber]` is required but not part of the name (one vendor per truth).
enum AppStoreConnectReportsAPI {
    /// GET /v1/financeReports?filter[…]
    static func finance(_ context: RequestContext, files: ReportFiles) -> HTTPResponse {
        let v: [String]
        switch filters(["reportType", "regionCode", "reportDate", "vendorNumber"], context) {
        case let .success(values): v = values
        case let .failure(error): return error.response
        }
        return serve(["apple/finance/\(v[0])_\(v[1])_\(v[2]).txt"], files: files)
    }

    /// GET /v1/salesReports?filter[…]
    static func sales(_ context: RequestContext, files: ReportFiles) -> HTTPResponse {
        let v: [String]
        switch filters(["reportType", "reportSubType", "frequency", "reportDate", "vendorNumber"], context) {
        case let .success(values): v = values
        case let .failure(error): return error.response
        }
        let prefix = "apple/sales/\(v[0])_\(v[1])_\(v[2])_"
        let suffix = "_\(v[3]).txt"
        if let version = context.query("filter[version]") {
            return serve([prefix + version + suffix], files: files)
        }
        let candidates = files.paths.filter {
            let plain = $0.hasSuffix(".gz") ? String($0.dropLast(3)) : $0
            return plain.hasPrefix(prefix) && plain.hasSuffix(suffix)
        }.map { $0.hasSuffix(".gz") ? String($0.dropLast(3)) : $0 }.sorted()
        return serve(candidates, files: files)
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
