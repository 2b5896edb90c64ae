import BillingCore

/// Masks identifiers (purchase tokens, transaction and order IDs) in URLs for logs, with BillingCore's one
/// masker (`Redaction.mask`).
public enum LogMasking {
    /// True when a path segment or query value looks like an identifier rather than a route word:
    /// 24+ characters, or 10+ characters holding 4+ digits.
    public static func looksLikeIdentifier(_ text: Substring) -> Bool {
        if text.count >= 24 { return true }
        return text.count >= 10 && text.filter(\.isNumber).count >= 4
    }

    /// The URL without user info, with identifier-like path segments and query values masked.
    /// A segment's `:verb` suffix (`{token}:acknowledge`) is kept.
    public static func maskURL(_ url: String) -> String {
        var rest = Substring(url)
        var prefix = ""
        if let schemeEnd = rest.range(of: "://") {
            prefix = String(rest[..<schemeEnd.upperBound])
            rest = rest[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            var authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            prefix += authority
            rest = rest[authorityEnd...]
        }
        let fragmentless = rest.prefix { $0 != "#" }
        let pathPart = fragmentless.prefix { $0 != "?" }
        let queryPart = fragmentless.dropFirst(pathPart.count)
        let path = pathPart.split(separator: "/", omittingEmptySubsequences: false).map(maskSegment).joined(separator: "/")
        guard !queryPart.isEmpty else { return prefix + path }
        let query = queryPart.dropFirst().split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let value = pair[pair.index(after: equals)...]
            return String(pair[...equals]) + (looksLikeIdentifier(value) ? Redaction.mask(value) : String(value))
        }.joined(separator: "&")
        return prefix + path + "?" + query
    }

    static func maskSegment(_ segment: Substring) -> String {
        if let colon = segment.lastIndex(of: ":"), looksLikeIdentifier(segment[..<colon]) {
            return Redaction.mask(segment[..<colon]) + segment[colon...]
        }
        return looksLikeIdentifier(segment) ? Redaction.mask(segment) : String(segment)
    }
}
