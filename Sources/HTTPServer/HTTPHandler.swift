import HTTP

/// Answers one request; the loopback server calls it from several threads at once.
/// `request.url` holds the path and query as received (`/inApps/v1/subscriptions/1?status=1`).
public protocol HTTPHandler: Sendable {
    /// The response to send. A handler can ask the server to misbehave (see `HTTPServerAction`).
    func handle(_ request: HTTPRequest) -> HTTPServerAction
}

/// What the server does with a request: answer it, or inject a transport fault.
public enum HTTPServerAction: Sendable {
    /// Send this response.
    case respond(HTTPResponse)
    /// Wait this many seconds, then send the response (a slow server, or a client timeout).
    case delay(seconds: Double, then: HTTPResponse)
    /// Close the connection without answering (a connection reset).
    case resetConnection
    /// Send the headers announcing the full body, then only the first `bytes` bytes, then close.
    case truncateBody(HTTPResponse, bytes: Int)
}
