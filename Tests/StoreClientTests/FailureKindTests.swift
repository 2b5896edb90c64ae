import AppStore
import BillingCore
import Foundation
import GooglePlay
import HTTP
import RateLimiting
import StoreCalls
import Testing

/// Every store, HTTP and verification error carries its own bounded failure kind (counted `failed.<name>`); the kind
/// comes from the error's type, never from its text.
struct FailureKindTests {
    struct Plain: Error, CustomStringConvertible {
        let description: String
    }

    static let cases: [(any Error, String)] = [
        (HTTPError.timeout(seconds: 5, message: "connect"), "timeout"),
        (HTTPError.connectionFailed("reset"), "connection"),
        (HTTPError.tls("bad certificate"), "tls"),
        (HTTPError.truncatedBody("12 of 40 bytes"), "truncated"),
        (HTTPError.responseTooLarge(limitBytes: 1024), "too_large"),
        (HTTPError.invalidURL("x"), "other"),
        (HTTPError.other(code: 7, message: "HTTP timeout, answered HTTP 503"), "other"),
        (StoreCallError.transport(.timeout(seconds: 5, message: "total")), "timeout"),
        (StoreCallError.transport(.connectionFailed("refused")), "connection"),
        (StoreCallError.store(AppStoreAPIError(httpStatus: 503, body: Data(), retryAfterHeader: nil)), "http_503"),
        (StoreCallError.store(AppStoreAPIError(httpStatus: 404, body: Data(#"{"errorCode":4040010}"#.utf8), retryAfterHeader: nil)), "http_404"),
        (StoreCallError.store(GooglePlayAPIError(httpStatus: 410, body: Data())), "http_410"),
        (StoreCallError.store(GooglePlayAPIError(httpStatus: 429, body: Data())), "http_429"),
        (StoreCallError.store(AppStoreClientError.verification(code: "bad_signature", detail: "x")), "signature"),
        (StoreCallError.store(AppStoreClientError.undecodable(endpoint: "statuses", detail: "x")), "undecodable"),
        (StoreCallError.store(GooglePlayAnswerError.undecodable(what: "listing", detail: "x")), "undecodable"),
        (StoreCallError.store(GooglePlayAnswerError.noReportBucket), "not_configured"),
        (StoreCallError.rateLimit(.dailyBudgetExhausted(bucket: "b", budget: 10, resetsAt: Date(timeIntervalSince1970: 0))), "budget"),
        (StoreCallError.request(HTTPError.tls("key")), "tls"),
        (StoreCallError.request(Plain(description: "the token could not be signed")), "other"),
        (StoreCallError.store(Plain(description: "signature undecodable timed out")), "other"),
        (Plain(description: "App Store Server API answered HTTP 503"), "other"),
    ]

    @Test(arguments: cases.indices)
    func eachErrorCarriesItsKind(_ index: Int) {
        let (error, name) = Self.cases[index]
        #expect(FailureKind(of: error).name == name, "\(error)")
    }

    @Test func theNamesAreBounded() {
        #expect(FailureKind.http(status: 503).name == "http_503")
        #expect(FailureKind.http(status: 99).name == "http_other")
        #expect(FailureKind.http(status: 600).name == "http_other")
        #expect(FailureKind.http(status: -1).name == "http_other")
        let names: [FailureKind] = [.timeout, .connection, .truncated, .tooLarge, .tls, .budget, .signature, .undecodable, .notConfigured, .storeBehind, .other]
        #expect(names.map(\.name) == ["timeout", "connection", "truncated", "too_large", "tls", "budget", "signature", "undecodable",
                                      "not_configured", "store_behind", "other"])
    }
}
