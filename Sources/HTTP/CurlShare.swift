import CCurl
import CCurlShim

/// Owns one locked CURLSH (DNS cache and TLS sessions shared between threads); freed exactly once.
/// Easy handles retain it, so it is cleaned up only after the last handle that uses it.
final class CurlShare: @unchecked Sendable {
    private let locked: OpaquePointer?

    init() {
        locked = ccurl_locked_share_new()
    }

    /// The CURLSH pointer, or nil when curl could not make one (then handles run unshared).
    var handle: UnsafeMutableRawPointer? {
        guard let locked else { return nil }
        return ccurl_locked_share_handle(locked)
    }

    deinit {
        if let locked { _ = ccurl_locked_share_free(locked) }
    }
}
