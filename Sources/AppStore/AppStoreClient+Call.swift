import BillingCore
import Crypto
import Foundation
import HTTP
import StoreCalls

extension AppStoreClient {
    /// One call: each attempt carries a JWT with at least half its lifetime left; the answer is decoded and every signed payload verified inside the
    /// retry loop, so a corrupted body or signature is retried like a transport failure, never returned.
    func call<Body: Decodable, Value>(_ endpoint: AppStoreEndpoint,
                                      _ transform: (Body) throws -> Value) throws(StoreCallError) -> Value {
        var value: Value?
        let body: Data
        do { body = try endpoint.body() } catch { throw .request(AppStoreClientError.undecodable(endpoint: "\(endpoint)", detail: "\(error)")) }
        _ = try executor.execute(endpoint.rateLimitEndpoint, makeRequest: {
            var headers = [(name: "Authorization", value: "Bearer " + (try tokens.token(now: now())))]
            if !body.isEmpty { headers.append((name: "Content-Type", value: "application/json")) }
            return HTTPRequest(method: endpoint.method, url: configuration.baseURL + endpoint.pathAndQuery, headers: headers, body: body)
        }, judge: { response in
            guard (200..<300).contains(response.status) else { return Self.verdict(for: response) }
            do {
                guard response.header("Content-Type")?.lowercased().contains("json") ?? false else {
                    throw AppStoreClientError.undecodable(endpoint: endpoint.rateLimitEndpoint.rawValue,
                                                          detail: "Content-Type \(response.header("Content-Type") ?? "missing")")
                }
                let decoded = try JSONDecoder().decode(Body.self, from: response.body)
                value = try transform(decoded)
                return .success
            } catch let error as AppStoreClientError {
                let outcome = error.isTransient ? "invalid_answer" : "rejected_answer"
                return error.isTransient ? .retry(outcome: outcome, storeErrorCode: nil, retryAt: nil, error: error)
                    : .fail(outcome: outcome, storeErrorCode: nil, error: error)
            } catch {
                let failure = AppStoreClientError.undecodable(endpoint: endpoint.rateLimitEndpoint.rawValue, detail: "\(error)")
                return .retry(outcome: "invalid_answer", storeErrorCode: nil, retryAt: nil, error: failure)
            }
        })
        guard let value else { throw .request(AppStoreClientError.undecodable(endpoint: "\(endpoint)", detail: "no value")) }
        return value
    }

    /// Classifies an error answer: 429 waits for Retry-After, retryable codes back off, the rest fail.
    static func verdict(for response: HTTPResponse) -> StoreCallVerdict {
        let error = AppStoreAPIError(httpStatus: response.status, body: response.body, retryAfterHeader: response.header("Retry-After"))
        let code = error.errorCode.map { String($0) }
        switch error.classification {
        case .rateLimited: return .retry(outcome: "rate_limited", storeErrorCode: code, retryAt: error.retryAfter, error: error)
        case .retryable: return .retry(outcome: "retryable", storeErrorCode: code, retryAt: nil, error: error)
        case .notFound: return .fail(outcome: "not_found", storeErrorCode: code, error: error)
        case .invalidRequest: return .fail(outcome: "invalid_request", storeErrorCode: code, error: error)
        case .unauthorized: return .fail(outcome: "unauthorized", storeErrorCode: code, error: error)
        case .permanent: return .fail(outcome: "permanent", storeErrorCode: code, error: error)
        }
    }

    /// Follows `hasMore` pages: `page(token)` returns the page's items and the next token, or nil at the end.
    func pages<Item>(_ page: (String?) throws(StoreCallError) -> ([Item], String?)) throws(StoreCallError) -> [Item] {
        var items: [Item] = []
        var token: String?
        repeat {
            let (batch, next) = try page(token)
            items += batch
            guard next != token else { break }
            token = next
        } while token != nil
        return items
    }

    func verifyTransaction(_ jws: String?) throws -> JWSTransactionDecodedPayload {
        guard let jws else { throw AppStoreClientError.undecodable(endpoint: "transaction", detail: "missing signedTransactionInfo") }
        return try Self.unwrap(verifier.verifyTransaction(jws, as: JWSTransactionDecodedPayload.self))
    }

    func verifyRenewal(_ jws: String) throws -> JWSRenewalInfoDecodedPayload {
        try Self.unwrap(verifier.verifyRenewalInfo(jws, as: JWSRenewalInfoDecodedPayload.self))
    }

    func verifyNotification(_ jws: String?, sendAttempts: [SendAttemptItem]) throws -> AppleNotificationEntry {
        guard let jws else { throw AppStoreClientError.undecodable(endpoint: "notification", detail: "missing signedPayload") }
        let notification = try Self.unwrap(verifier.verifyNotification(jws, as: ResponseBodyV2DecodedPayload.self))
        let transaction = try notification.data?.signedTransactionInfo.map { try verifyTransaction($0) }
        let renewal = try notification.data?.signedRenewalInfo.map { try verifyRenewal($0) }
        return AppleNotificationEntry(signedPayload: jws, notification: notification, transaction: transaction,
                                      renewalInfo: renewal, sendAttempts: sendAttempts)
    }

    static func unwrap<Value>(_ result: JWSVerificationResult<Value>) throws -> Value {
        guard let value = result.value else { throw AppStoreClientError.verification(code: result.code, detail: "\(result)") }
        return value
    }
}
