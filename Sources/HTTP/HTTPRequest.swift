import Foundation

/// An HTTP request as the pipeline's clients build it and the loopback server receives it.
public struct HTTPRequest: Sendable, Hashable {
    public var method: String
    /// Absolute URL for clients (`https://api.storekit.apple.com/inApps/v1/…`); for the server, the path only.
    public var url: String
    /// Header fields in order; names compare case-insensitively.
    public var headers: [(name: String, value: String)]
    public var body: Data

    /// Makes a request.
    public init(method: String, url: String, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The path without the query (`/inApps/v1/subscriptions/123`).
    public var path: String {
        let withoutScheme = url.range(of: "://").map { String(url[$0.upperBound...]) }.map { rest in
            rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
        } ?? url
        return String(withoutScheme.prefix { $0 != "?" })
    }

    /// The query items in order, percent-decoded; repeated names repeat.
    public var queryItems: [(name: String, value: String)] {
        guard let start = url.firstIndex(of: "?") else { return [] }
        return url[url.index(after: start)...].split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in (text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding) ?? String(text) }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body
            && lhs.headers.map { "\($0.name):\($0.value)" } == rhs.headers.map { "\($0.name):\($0.value)" }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(url)
        hasher.combine(body)
    }
}
