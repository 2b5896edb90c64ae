import Crypto
import Foundation
import HTTP
import StoreAuth
import StoreCalls

/// Service-account OAuth: exchanges a signed assertion for an access token and caches it until shortly
/// before it expires. Thread-safe; one refresh at a time.
public final class GoogleAccessTokenProvider: @unchecked Sendable {
    private let assertions: GoogleOAuthAssertionFactory
    private let tokenURL: String
    private let scopes: [String]
    private let executor: StoreCallExecutor
    private let refreshMargin: TimeInterval
    private let now: @Sendable () -> Date
    private let lock = NSLock()
    private var cached: (token: String, expiresAt: Date)?
    /// How many tokens were fetched (for tests and logs).
    public private(set) var fetchCount = 0

    /// A provider for `key`; the token URL defaults to the key file's `token_uri`.
    public init(key: GoogleServiceAccountKey, tokenURL: String? = nil,
                scopes: [String] = [GoogleOAuthAssertionFactory.androidPublisherScope, GoogleOAuthAssertionFactory.storageReadOnlyScope],
                executor: StoreCallExecutor, refreshMargin: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.assertions = try GoogleOAuthAssertionFactory(serviceAccount: key)
        self.tokenURL = tokenURL ?? key.tokenURI
        self.scopes = scopes
        self.executor = executor
        self.refreshMargin = refreshMargin
        self.now = now
    }

    /// A valid access token, fetched when none is cached or the cached one expires within the margin.
    public func token() throws(StoreCallError) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let cached, cached.expiresAt.timeIntervalSince(now()) > refreshMargin { return cached.token }
        let fetched = try fetch()
        cached = fetched
        fetchCount += 1
        return fetched.token
    }

    /// Drops the cached token (after a 401).
    public func invalidate() {
        lock.lock()
        cached = nil
        lock.unlock()
    }

    private func fetch() throws(StoreCallError) -> (token: String, expiresAt: Date) {
        struct TokenResponse: Decodable { let access_token: String; let expires_in: Int? }
        var result: (String, Date)?
        let issuedAt = now()
        _ = try executor.execute(nil, label: "google.oauth", makeRequest: {
            HTTPRequest(method: "POST", url: tokenURL, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                        body: Data(try assertions.makeTokenRequestBody(scopes: scopes, now: issuedAt).utf8))
        }, judge: { response in
            guard (200..<300).contains(response.status) else { return GooglePlayClient.verdict(for: response) }
            // Probe: an undecodable token answer becomes a retried `invalid_answer` verdict, then a typed failure.
            guard let decoded = try? JSONDecoder().decode(TokenResponse.self, from: response.body) else {
                return .retry(outcome: "invalid_answer", storeErrorCode: nil, retryAt: nil,
                              error: GooglePlayAPIError(httpStatus: response.status, body: response.body))
            }
            result = (decoded.access_token, issuedAt.addingTimeInterval(TimeInterval(decoded.expires_in ?? 3600)))
            return .success
        })
        guard let result else { throw .request(GooglePlayAPIError(httpStatus: 0, body: Data())) }
        return result
    }
}
