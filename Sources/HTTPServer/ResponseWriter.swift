import Foundation
import HTTP

/// Serialises responses: status line, the handler's headers (framing headers replaced), body.
enum ResponseWriter {
    static let reasons: [Int: String] = [
        100: "Continue", 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 301: "Moved Permanently",
        302: "Found", 304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 408: "Request Timeout", 409: "Conflict", 410: "Gone", 413: "Content Too Large",
        429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout",
    ]
    static let framingHeaders: Set<String> = ["content-length", "transfer-encoding", "connection"]

    /// The head bytes for a response whose body is `bodyLength` bytes long.
    static func head(_ response: HTTPResponse, bodyLength: Int, close: Bool, http10KeepAlive: Bool) -> [UInt8] {
        let status = (100...999).contains(response.status) ? response.status : 500
        var text = "HTTP/1.1 \(status) \(reasons[status] ?? "Status")\r\n"
        for header in response.headers where !framingHeaders.contains(header.name.lowercased()) {
            let name = String(String.UnicodeScalarView(header.name.unicodeScalars.filter { $0.value > 32 && $0.value < 127 && $0 != ":" }))
            let value = String(String.UnicodeScalarView(header.value.unicodeScalars.filter { $0.value >= 32 || $0 == "\t" }))
            guard !name.isEmpty else { continue }
            text += "\(name): \(value)\r\n"
        }
        if status >= 200 && status != 204 && status != 304 { text += "Content-Length: \(bodyLength)\r\n" }
        if close {
            text += "Connection: close\r\n"
        } else if http10KeepAlive {
            text += "Connection: keep-alive\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// Writes head and (unless `omitBody`) the first `bodyBytes` bytes of the body; false when the peer is gone.
    static func write(_ response: HTTPResponse, to descriptor: Int32, close: Bool, http10KeepAlive: Bool,
                      omitBody: Bool, bodyBytes: Int? = nil) -> Bool {
        var bytes = head(response, bodyLength: response.body.count, close: close, http10KeepAlive: http10KeepAlive)
        let sendCount = omitBody ? 0 : min(bodyBytes ?? response.body.count, response.body.count)
        if sendCount <= 65_536 {
            bytes.append(contentsOf: response.body.prefix(sendCount))
            return SocketIO.sendAll(descriptor, bytes)
        }
        guard SocketIO.sendAll(descriptor, bytes) else { return false }
        return response.body.prefix(sendCount).withUnsafeBytes { SocketIO.sendAll(descriptor, $0) }
    }

    /// A plain-text error response.
    static func error(_ status: Int, _ reason: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: .init((reason + "\n").utf8))
    }
}
