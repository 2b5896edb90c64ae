import Crypto
import Foundation
import HTTP

/// Builds the simulator's HTTP responses in each store's own JSON and error shapes.
enum Responses {
    /// Deterministic JSON: sorted keys, unescaped slashes.
    static func encode(_ value: JSONValue) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("null".utf8)
    }

    /// A JSON response.
    static func json(_ status: Int, _ value: JSONValue, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        var response = HTTPResponse.json(status, encode(value))
        response.headers += headers
        return response
    }

    /// Apple's `{errorCode, errorMessage}`.
    static func apple(_ error: AppleAPIError, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        json(error.status, .object(["errorCode": .integer(error.code), "errorMessage": .string(error.message)]),
             headers: headers)
    }

    /// Google's `{error: {code, message, status, errors: [{message, domain, reason}]}}`.
    static func google(_ code: Int, _ status: String, _ message: String, reason: String,
                       domain: String = "androidpublisher") -> HTTPResponse {
        let detail: JSONValue = .object(["message": .string(message), "domain": .string(domain), "reason": .string(reason)])
        return json(code, .object(["error": .object([
            "code": .integer(Int64(code)), "message": .string(message), "status": .string(status),
            "errors": .array([detail]),
        ])]))
    }

    /// App Store Connect API's `{errors: [{status, code, title, detail}]}`.
    static func appStoreConnect(_ status: Int, code: String, title: String, detail: String) -> HTTPResponse {
        json(status, .object(["errors": .array([.object([
            "status": .string(String(status)), "code": .string(code), "title": .string(title), "detail": .string(detail),
        ])])]))
    }

    /// A plain-text response (Apple's 401 has no JSON body).
    static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data(text.utf8))
    }

    /// A binary download.
    static func bytes(_ data: Data, contentType: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", contentType)], body: data)
    }

    /// Milliseconds since 1970 for `date`.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
