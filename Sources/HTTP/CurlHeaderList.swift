import CCurl

/// Owns one `curl_slist` of request header lines; `curl_slist_free_all` runs exactly once, in deinit.
final class CurlHeaderList {
    private(set) var list: UnsafeMutablePointer<curl_slist>?

    init() {}

    /// Appends a `Name: value` line; false when curl could not allocate it.
    func append(_ line: String) -> Bool {
        guard let appended = curl_slist_append(list, line) else { return false }
        list = appended
        return true
    }

    deinit {
        if let list { curl_slist_free_all(list) }
    }
}
