/// A parsed request line and header block, with the framing and persistence they imply.
struct RequestHead {
    /// How the body is delimited.
    enum Framing: Equatable {
        case none
        case length(Int)
        case chunked
    }

    /// A request the server refuses: the status to answer with (the connection then closes).
    struct Rejection: Error {
        let status: Int
        let reason: String
    }

    static let tokenBytes = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    var method = ""
    var target = ""
    var isHTTP10 = false
    var headers: [(name: String, value: String)] = []
    var framing = Framing.none
    var keepAlive = true
    var expectsContinue = false

    /// Parses the bytes before the blank line; rejects anything that is not clean HTTP/1.x.
    init(parsing bytes: ArraySlice<UInt8>, maxBody: Int) throws(Rejection) {
        var lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { line -> ArraySlice<UInt8> in
            line.last == 13 ? line.dropLast() : line
        }
        while let first = lines.first, first.isEmpty { lines.removeFirst() } // tolerate stray CRLF between requests
        guard let requestLine = lines.first else { throw Rejection(status: 400, reason: "empty request") }
        let parts = requestLine.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(Self.tokenBytes.contains) else {
            throw Rejection(status: 400, reason: "malformed request line")
        }
        guard parts[1].first == UInt8(ascii: "/"), parts[1].allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw Rejection(status: 400, reason: "malformed request target")
        }
        switch String(decoding: parts[2], as: UTF8.self) {
        case "HTTP/1.1": isHTTP10 = false
        case "HTTP/1.0": isHTTP10 = true
        default: throw Rejection(status: 400, reason: "unsupported HTTP version")
        }
        method = String(decoding: parts[0], as: UTF8.self)
        target = String(decoding: parts[1], as: UTF8.self)
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: 58) else { throw Rejection(status: 400, reason: "header line without a colon") }
            let name = line[line.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(Self.tokenBytes.contains) else {
                throw Rejection(status: 400, reason: "malformed header name")
            }
            let rawValue = line[(colon + 1)...]
            guard rawValue.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
                throw Rejection(status: 400, reason: "control character in a header value")
            }
            let value = String(decoding: rawValue, as: UTF8.self).trimmingASCII(" \t")
            headers.append((String(decoding: name, as: UTF8.self), value))
        }
        try interpretHeaders(maxBody: maxBody)
    }

    private mutating func interpretHeaders(maxBody: Int) throws(Rejection) {
        var length: Int?
        var chunked = false
        var connectionTokens: [String] = []
        for (name, value) in headers {
            switch name.lowercased() {
            case "content-length":
                for item in value.split(separator: ",") {
                    let text = item.trimmingASCII(" \t")
                    guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }), let parsed = Int(text),
                          length == nil || length == parsed else {
                        throw Rejection(status: 400, reason: "invalid Content-Length")
                    }
                    length = parsed
                }
            case "transfer-encoding":
                guard value.lowercased().trimmingASCII(" \t") == "chunked" else {
                    throw Rejection(status: 501, reason: "unsupported Transfer-Encoding")
                }
                chunked = true
            case "connection":
                connectionTokens += value.lowercased().split(separator: ",").map { $0.trimmingASCII(" \t") }
            case "expect":
                expectsContinue = value.lowercased() == "100-continue"
            default:
                break
            }
        }
        if chunked && length != nil { throw Rejection(status: 400, reason: "both Content-Length and Transfer-Encoding") }
        if let length, length > maxBody { throw Rejection(status: 413, reason: "body larger than \(maxBody) bytes") }
        framing = chunked ? .chunked : length.map { $0 > 0 ? .length($0) : .none } ?? .none
        keepAlive = isHTTP10 ? connectionTokens.contains("keep-alive") : !connectionTokens.contains("close")
        if isHTTP10 { expectsContinue = false }
    }
}

extension StringProtocol {
    /// Trims the given ASCII characters from both ends.
    func trimmingASCII(_ characters: String) -> String {
        let set = Set(characters)
        var slice = Substring(String(self))
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
