import BillingCore
import Foundation
import GooglePlay
import HTTP
import RateLimiting
import SimulatorFixtures
import StoreAuth
import StoreCalls
import Testing

/// A 2xx Google answer that cannot be used, or a report call without a bucket, throws a typed error: a listing
/// never stops quietly at a bad page and never comes back empty because the bucket is missing.
@Suite struct GoogleAnswerErrorTests {
    /// A client whose transport answers from `pages` (by the request's `pageToken`, "" for the first page).
    static func client(bucket: String?, pages: [String: String]) throws -> GooglePlayClient {
        let send: StoreCallExecutor.Send = { request throws(HTTPError) in
            if request.url.hasSuffix("/token") {
                return HTTPResponse(status: 200, body: Data(#"{"access_token":"test-access","expires_in":3600}"#.utf8))
            }
            let token = URLComponents(string: request.url)?.queryItems?.first { $0.name == "pageToken" }?.value ?? ""
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Data((pages[token] ?? "{}").utf8))
        }
        let executor = StoreCallExecutor(send: send, retryPolicy: RetryPolicy(base: 0.01, cap: 0.02, maxAttempts: 2))
        let key = GoogleServiceAccountKey(privateKey: try TestKeys.google.get(), clientEmail: "pipeline@project.iam.gserviceaccount.com",
                                          tokenURI: "http://127.0.0.1:9/token")
        let tokens = try GoogleAccessTokenProvider(key: key, executor: executor)
        return GooglePlayClient(configuration: GooglePlayConfiguration(packageName: "com.example.app", publisherBaseURL: "http://127.0.0.1:9",
                                                                       reportBucket: bucket),
                                tokens: tokens, executor: executor)
    }

    @Test func aListingPageThatDoesNotDecodeMakesTheListingThrow() throws {
        let client = try Self.client(bucket: "pubsite_prod_rev_test", pages: [
            "": #"{"items":[{"name":"earnings/earnings_202601_1.zip"}],"nextPageToken":"p2"}"#,
            "p2": #"{"items":"not a list","nextPageToken":"p3"}"#,
            "p3": #"{"items":[{"name":"earnings/earnings_202602_1.zip"}]}"#,
        ])
        let error = storeError(GooglePlayAnswerError.self) { _ = try client.reportObjects(prefix: "earnings/") }
        guard case .undecodable(let what, _)? = error else {
            Issue.record("expected GooglePlayAnswerError.undecodable, got \(String(describing: error))")
            return
        }
        #expect(what == "StorageObjectList")
    }

    @Test func aCompleteListingFollowsEveryPage() throws {
        let client = try Self.client(bucket: "pubsite_prod_rev_test", pages: [
            "": #"{"items":[{"name":"earnings/a.zip"}],"nextPageToken":"p2"}"#,
            "p2": #"{"items":[{"name":"earnings/b.zip"}]}"#,
        ])
        #expect(try client.reportObjects(prefix: "earnings/").map(\.name) == ["earnings/a.zip", "earnings/b.zip"])
    }

    @Test func aMissingBucketIsAnErrorNotAnEmptyListing() throws {
        let client = try Self.client(bucket: nil, pages: [:])
        #expect(storeError(GooglePlayAnswerError.self) { _ = try client.reportObjects(prefix: "earnings/") } == .noReportBucket)
        #expect(storeError(GooglePlayAnswerError.self) { _ = try client.downloadReport(name: "earnings/a.zip") } == .noReportBucket)
    }

    @Test func anUndecodableVoidedPurchasesPageThrowsTheTypedError() throws {
        let client = try Self.client(bucket: nil, pages: ["": #"{"voidedPurchases":{"not":"a list"}}"#])
        let error = storeError(GooglePlayAnswerError.self) { _ = try client.voidedPurchases(since: Date(timeIntervalSince1970: 1_767_225_600)) }
        guard case .undecodable(let what, _)? = error else {
            Issue.record("expected GooglePlayAnswerError.undecodable, got \(String(describing: error))")
            return
        }
        #expect(what == "VoidedPurchasesResponse")
    }
}
