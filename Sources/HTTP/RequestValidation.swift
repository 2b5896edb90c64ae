/// Checks a request before any I/O: method and header syntax, URL shape, and the scheme rule.
enum RequestValidation {
    static let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

    static func validate(_ request: HTTPRequest) throws(HTTPError) {
        guard !request.method.isEmpty, request.method.allSatisfy(tokenCharacters.contains) else {
            throw .invalidRequest("method '\(request.method.prefix(20))' is not an HTTP token")
        }
        for header in request.headers {
            guard !header.name.isEmpty, header.name.allSatisfy(tokenCharacters.contains) else {
                throw .invalidRequest("header name '\(header.name.prefix(40))' is not an HTTP token")
            }
            guard !header.value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw .invalidRequest("header '\(header.name)' contains CR, LF or NUL")
            }
        }
        guard !request.url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 32 || $0.value == 127 }) else {
            throw .invalidURL("the URL contains whitespace or control characters")
        }
        guard let (scheme, host) = LoopbackAddress.schemeAndHost(of: request.url) else {
            throw .invalidURL("'\(LogMasking.maskURL(request.url))' is not an absolute http(s) URL")
        }
        switch scheme {
        case "https": return
        case "http":
            guard LoopbackAddress.isLoopback(host) else { throw .insecureScheme(host: host) }
        default:
            throw .invalidURL("unsupported scheme '\(scheme)'; only https (and http to loopback) are allowed")
        }
    }
}
