import Foundation
import CCurl
import CCurlShim

/// Owns one CURL easy handle and its error buffer; `curl_easy_cleanup` runs exactly once, in deinit.
/// Used by one thread at a time: the client's pool hands it out and takes it back.
final class CurlEasyHandle {
    let handle: UnsafeMutableRawPointer
    let share: CurlShare
    let errorBuffer: UnsafeMutablePointer<CChar>

    /// Nil when libcurl cannot allocate a handle.
    init?(share: CurlShare) {
        guard CurlGlobal.initialized, let handle = curl_easy_init() else { return nil }
        self.handle = handle
        self.share = share
        errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Resets options to defaults (keeping live connections and caches) and re-attaches buffer and share.
    func reset() {
        curl_easy_reset(handle)
        errorBuffer[0] = 0
        _ = ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer))
        if let shared = share.handle { _ = ccurl_setopt_share(handle, shared) }
    }

    /// The detailed message of the last failure, or curl's generic text for `code`.
    func message(for code: CURLcode) -> String {
        let detailed = String(cString: errorBuffer)
        if !detailed.isEmpty { return detailed.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard let generic = curl_easy_strerror(code) else { return "curl error \(code.rawValue)" }
        return String(cString: generic)
    }

    func set(_ option: CURLoption, _ value: Int) throws(HTTPError) {
        try check(ccurl_setopt_long(handle, option, value), option)
    }

    func set(_ option: CURLoption, _ value: String) throws(HTTPError) {
        try check(ccurl_setopt_string(handle, option, value), option)
    }

    func check(_ code: CURLcode, _ option: CURLoption) throws(HTTPError) {
        guard code == CURLE_OK else {
            throw .other(code: Int(code.rawValue), message: "setting curl option \(option.rawValue): \(message(for: code))")
        }
    }

    func infoLong(_ info: CURLINFO) -> Int {
        var value = 0
        return ccurl_getinfo_long(handle, info, &value) == CURLE_OK ? value : 0
    }

    func infoOffset(_ info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        return ccurl_getinfo_off_t(handle, info, &value) == CURLE_OK ? Int64(value) : 0
    }
}

/// `curl_global_init` exactly once per process (Swift runs a static initializer once, thread-safely).
enum CurlGlobal {
    static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
}
