import Crypto
import Foundation

/// Reuses one App Store Server API token while at least half of its lifetime is left, then signs a new one.
///
/// Apple accepts a token for every request until its `exp`, so signing a fresh ES256 JWT per request only costs CPU;
/// reusing it for the first half of its life keeps every request at least `lifetimeSeconds / 2` away from expiry.
/// A clock that goes backwards (a test's fixed instant) gets a fresh token. Thread-safe.
public final class AppStoreTokenCache: @unchecked Sendable {
    /// The factory that signs each new token.
    public let factory: AppStoreTokenFactory
    private let lock = NSLock()
    private var current: (token: String, issuedAt: Int64)?

    /// A cache over `factory`.
    public init(factory: AppStoreTokenFactory) { self.factory = factory }

    /// A token valid for at least half of the factory's lifetime after `now`.
    public func token(now: Date) throws -> String {
        let second = Int64(now.timeIntervalSince1970.rounded(.down))
        lock.lock()
        defer { lock.unlock() }
        if let current, second >= current.issuedAt, second - current.issuedAt < Int64(factory.lifetimeSeconds / 2) {
            return current.token
        }
        let token = try factory.makeToken(now: now)
        current = (token, second)
        return token
    }
}
