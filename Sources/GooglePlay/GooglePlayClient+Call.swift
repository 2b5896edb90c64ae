import Crypto
import Foundation
import HTTP
import StoreCalls

extension GooglePlayClient {
    /// One call with a bearer token; a 401 drops the cached token and retries once with a fresh one.
    func call(_ endpoint: GooglePlayEndpoint, expectsJSON: Bool) throws(StoreCallError) -> Data {
        do {
            return try attempt(endpoint, expectsJSON: expectsJSON)
        } catch .store(let error as GooglePlayAPIError) where error.classification == .unauthorized {
            tokens.invalidate()
            return try attempt(endpoint, expectsJSON: expectsJSON)
        }
    }

    private func attempt(_ endpoint: GooglePlayEndpoint, expectsJSON: Bool) throws(StoreCallError) -> Data {
        let base = endpoint.isStorage ? configuration.storageBaseURL : configuration.publisherBaseURL
        let token = try tokens.token()
        let response = try executor.execute(endpoint.rateLimitEndpoint, label: endpoint.label, makeRequest: {
            HTTPRequest(method: endpoint.method, url: base + endpoint.pathAndQuery, headers: [("Authorization", "Bearer " + token)])
        }, judge: { response in
            guard (200..<300).contains(response.status) else { return Self.verdict(for: response) }
            // Probe: a body that is not JSON becomes a retried `invalid_answer` verdict, then a typed failure.
            if expectsJSON, (try? JSONValue.parse(response.body)) == nil {
                return .retry(outcome: "invalid_answer", storeErrorCode: nil, retryAt: nil,
                              error: GooglePlayAPIError(httpStatus: response.status, body: Data()))
            }
            return .success
        })
        return response.body
    }

    /// Classifies an error answer: quota and 5xx back off with jitter; 410, 404, 401 and other 4xx fail.
    static func verdict(for response: HTTPResponse) -> StoreCallVerdict {
        let error = GooglePlayAPIError(httpStatus: response.status, body: response.body)
        let code = error.reason ?? error.status
        switch error.classification {
        case .rateLimited: return .retry(outcome: "rate_limited", storeErrorCode: code, retryAt: nil, error: error)
        case .retryable: return .retry(outcome: "retryable", storeErrorCode: code, retryAt: nil, error: error)
        case .gone: return .fail(outcome: "gone", storeErrorCode: code, error: error)
        case .notFound: return .fail(outcome: "not_found", storeErrorCode: code, error: error)
        case .unauthorized: return .fail(outcome: "unauthorized", storeErrorCode: code, error: error)
        case .invalidRequest: return .fail(outcome: "invalid_request", storeErrorCode: code, error: error)
        }
    }
}
