import AppStore
import Foundation
import GooglePlay
import Testing

/// Every documented error answer lands in its class (table-driven from docs/store-apis.md).
@Suite struct ErrorClassificationTests {
    @Test(arguments: [
        (429, Int64(4290000), AppStoreAPIError.Classification.rateLimited),
        (404, 4040010, .notFound), (404, 4040005, .notFound), (404, 4040001, .notFound), (404, 4040003, .notFound),
        (404, 4040002, .retryable), (404, 4040004, .retryable), (404, 4040006, .retryable),
        (500, 5000000, .retryable), (500, 5000001, .retryable), (503, nil, .retryable),
        (400, 4000006, .invalidRequest), (400, 4000005, .invalidRequest), (400, 4000014, .invalidRequest), (400, 4000017, .invalidRequest),
        (401, nil, .unauthorized), (418, 9999999, .permanent),
    ] as [(Int, Int64?, AppStoreAPIError.Classification)])
    func appleErrorCodes(status: Int, code: Int64?, expected: AppStoreAPIError.Classification) {
        let body = code.map { Data(#"{"errorCode": \#($0), "errorMessage": "m"}"#.utf8) } ?? Data()
        let error = AppStoreAPIError(httpStatus: status, body: body, retryAfterHeader: status == 429 ? "1772323200123" : nil)
        #expect(error.classification == expected)
        #expect(error.errorCode == code, "unknown codes are kept raw")
        if status == 429 { #expect(error.retryAfter == Date(timeIntervalSince1970: 1_772_323_200.123)) }
    }

    @Test(arguments: [
        (429, "RESOURCE_EXHAUSTED", nil, GooglePlayAPIError.Classification.rateLimited),
        (403, "PERMISSION_DENIED", "rateLimitExceeded", .rateLimited), (403, "PERMISSION_DENIED", "userRateLimitExceeded", .rateLimited),
        (403, "PERMISSION_DENIED", "forbidden", .invalidRequest), (410, "NOT_FOUND", "purchaseTokenNoLongerValid", .gone),
        (404, "NOT_FOUND", "notFound", .notFound), (401, "UNAUTHENTICATED", nil, .unauthorized),
        (500, "INTERNAL", nil, .retryable), (503, "UNAVAILABLE", "backendError", .retryable), (400, "INVALID_ARGUMENT", "invalid", .invalidRequest),
    ] as [(Int, String, String?, GooglePlayAPIError.Classification)])
    func googleErrors(status: Int, statusText: String, reason: String?, expected: GooglePlayAPIError.Classification) {
        let errors = reason.map { #", "errors": [{"reason": "\#($0)", "domain": "global"}]"# } ?? ""
        let body = Data(#"{"error": {"code": \#(status), "message": "m", "status": "\#(statusText)"\#(errors)}}"#.utf8)
        let error = GooglePlayAPIError(httpStatus: status, body: body)
        #expect(error.classification == expected)
        #expect(error.reason == reason)
    }
}
