import Foundation
import HTTP
import StoreAuth
import StoreCalls

/// Downloads App Store Connect reports (`financeReports`, `salesReports`): a fresh team JWT per attempt
/// (`aud` appstoreconnect-v1, no `bid`, at most 20 minutes), the gzip body returned as sent, and Apple's 404
/// "There were no sales for the date specified." answered as nil (an empty day or period, not a failure).
public final class AppStoreConnectReportsClient: Sendable {
    /// `https://api.appstoreconnect.apple.com`, or the simulator's URL.
    public let baseURL: String
    let tokens: AppStoreConnectTokenFactory
    let executor: StoreCallExecutor
    let now: @Sendable () -> Date

    /// Apple's App Store Connect API host.
    public static let productionURL = "https://api.appstoreconnect.apple.com"

    /// A client calling `baseURL` with tokens from `tokens` through `executor` (retries and attempt reports).
    public init(baseURL: String = AppStoreConnectReportsClient.productionURL, tokens: AppStoreConnectTokenFactory,
                executor: StoreCallExecutor, now: @escaping @Sendable () -> Date = { Date() }) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.tokens = tokens
        self.executor = executor
        self.now = now
    }

    /// The report's gzip bytes, or nil when Apple answers that there is no report (no sales) for the date.
    public func download(_ query: AppStoreConnectReportQuery) throws(StoreCallError) -> Data? {
        var empty = false
        let response = try executor.execute(nil, label: query.label, makeRequest: {
            HTTPRequest(method: "GET", url: baseURL + query.pathAndQuery,
                        headers: [(name: "Authorization", value: "Bearer " + (try tokens.makeToken(now: now()))),
                                  (name: "Accept", value: "application/a-gzip")], body: Data())
        }, judge: { response in
            if response.status == 200 { return .success }
            if Self.isNoSales(response) {
                empty = true
                return .success
            }
            return AppStoreClient.verdict(for: response)
        })
        return empty ? nil : response.body
    }

    /// Apple's "no report for this date" answer: 404 whose error detail says there were no sales.
    static func isNoSales(_ response: HTTPResponse) -> Bool {
        guard response.status == 404 else { return false }
        return String(decoding: response.body, as: UTF8.self).lowercased().contains("there were no sales for the date specified")
    }
}
