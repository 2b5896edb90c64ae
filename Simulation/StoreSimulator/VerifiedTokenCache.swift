import Crypto
import Foundation

/// Bearer tokens whose signature already verified, with their decoded header and claims, so a client that reuses
/// its token (as Apple allows until `exp`) is not re-verified on every request. Only the signature check is cached:
/// the claims (issuer, audience, expiry) are checked on every request by the caller. Bounded; cleared when full.
final class VerifiedTokenCache: @unchecked Sendable {
    private let lock = NSLock()
    private var verified: [String: (header: JSONValue, claims: JSONValue)] = [:]
    private let capacity: Int

    /// A cache holding at most `capacity` tokens.
    init(capacity: Int = 256) { self.capacity = capacity }

    /// The decoded token, verifying it with `verify` unless it verified before.
    func decoded(_ token: String, verify: (String) throws(JWTVerificationError) -> (header: JSONValue, claims: JSONValue))
        throws(JWTVerificationError) -> (header: JSONValue, claims: JSONValue) {
        lock.lock()
        let known = verified[token]
        lock.unlock()
        if let known { return known }
        let decoded = try verify(token)
        lock.lock()
        if verified.count >= capacity { verified.removeAll(keepingCapacity: true) }
        verified[token] = decoded
        lock.unlock()
        return decoded
    }
}
