import Crypto
import Foundation
import HTTP
import StoreTruth

/// Delivers a TEST notification the way Apple's App Store Server Notifications V2 do: one POST of
/// `{"signedPayload": "<JWS>"}` to the app's notification URL. The answer becomes the send attempt's result.
enum TestNotificationSender {
    /// POSTs the signed notification; returns Apple's `sendAttemptResult` for the outcome.
    static func deliver(_ notification: AppleNotificationTruth, to url: String, _ context: RequestContext) throws -> String {
        let body = JSONValue.object(["signedPayload": .string(try AppleNotificationAPI.signedPayload(notification, context.session))])
        let request = HTTPRequest(method: "POST", url: url, headers: [(name: "Content-Type", value: "application/json")],
                                  body: Responses.encode(body))
        let client = HTTPClient(configuration: HTTPClientConfiguration(timeouts: HTTPTimeouts(connect: 2, total: 5)))
        do throws(HTTPError) {
            let response = try client.send(request)
            return (200..<300).contains(response.status) ? "SUCCESS" : "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
        } catch {
            switch error {
            case .timeout: return "TIMED_OUT"
            case .connectionFailed: return "NO_RESPONSE"
            case .tls: return "TLS_ISSUE"
            default: return "OTHER"
            }
        }
    }
}
