/// What the client reports about one exchange: never headers or bodies, and the URL masked.
public struct HTTPExchangeLog: Sendable, Equatable {
    /// The request method (`GET`).
    public var method: String
    /// The URL with long identifiers masked (`/inApps/v1/transactions/2000…6789`) and no user info.
    public var maskedURL: String
    /// The HTTP status, or nil when the exchange failed.
    public var status: Int?
    /// Wall time of the exchange in milliseconds.
    public var latencyMilliseconds: Double
    /// Request body bytes sent.
    public var bytesSent: Int
    /// Response body bytes received on the wire (before decompression).
    public var bytesReceived: Int
    /// The failure, when there was one (its description never contains headers or bodies).
    public var error: HTTPError?

    /// Makes a log record.
    public init(method: String, maskedURL: String, status: Int?, latencyMilliseconds: Double,
                bytesSent: Int, bytesReceived: Int, error: HTTPError? = nil) {
        self.method = method
        self.maskedURL = maskedURL
        self.status = status
        self.latencyMilliseconds = latencyMilliseconds
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.error = error
    }

    /// One line for text logs: `GET https://host/… 200 12.3ms sent=0 received=512`.
    public var line: String {
        let outcome = status.map(String.init) ?? "failed"
        let latency = (latencyMilliseconds * 10).rounded() / 10
        var text = "\(method) \(maskedURL) \(outcome) \(latency)ms sent=\(bytesSent) received=\(bytesReceived)"
        if let error { text += " error=\(error)" }
        return text
    }
}
