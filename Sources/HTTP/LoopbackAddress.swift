/// Recognises loopback hosts (127.0.0.0/8, `localhost`, `::1`) and the host part of URLs.
public enum LoopbackAddress {
    /// True for `localhost`, any dotted-quad IPv4 address in 127.0.0.0/8, and `::1` (with or without brackets).
    public static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "localhost." { return true }
        if lowered == "::1" || lowered == "[::1]" || lowered == "0:0:0:0:0:0:0:1" || lowered == "[0:0:0:0:0:0:0:1]" { return true }
        let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        let octets = parts.compactMap { part -> Int? in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(part).flatMap { $0 <= 255 ? $0 : nil }
        }
        return octets.count == 4 && octets[0] == 127
    }

    /// The scheme (lowercased) and host of an absolute URL, or nil when it has no `scheme://host`.
    public static func schemeAndHost(of url: String) -> (scheme: String, host: String)? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        let rest = url[schemeEnd.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let host: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
        } else {
            host = authority.prefix { $0 != ":" }
        }
        guard !scheme.isEmpty, !host.isEmpty else { return nil }
        return (scheme, String(host))
    }
}
