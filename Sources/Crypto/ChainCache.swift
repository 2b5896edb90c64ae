import Foundation

/// A leaf → intermediate → root path that passed validation, with the leaf key parsed once.
final class VerifiedChain: Sendable {
    /// The leaf's P-256 key, parsed once, ready to verify (owns the key; freed once in its `deinit`).
    let verifier: ES256VerifyTemplate
    /// Latest `notBefore` in the path (seconds since 1970).
    let validFrom: Int
    /// Earliest `notAfter` in the path (seconds since 1970).
    let validUntil: Int

    init(verifier: ES256VerifyTemplate, validFrom: Int, validUntil: Int) {
        self.verifier = verifier
        self.validFrom = validFrom
        self.validUntil = validUntil
    }

    /// True when `time` lies strictly inside every certificate's validity period, so validating the
    /// same path at `time` must succeed too (no CRL/OCSP: time enters path validation only here).
    /// The open interval sidesteps OpenSSL's exact boundary rules; a boundary instant is re-validated.
    func covers(_ time: Int) -> Bool {
        validFrom < time && time < validUntil
    }
}

/// What resolving a chain produced.
enum ChainOutcome {
    case valid(VerifiedChain)
    case format(JWSFormatProblem)
    case certificate(JWSCertificateProblem)
    case retryable(String)
}

/// Validated chains keyed by the exact x5c[0] and x5c[1] text; at most one full validation runs at a time.
///
/// The key is the base64 text rather than the decoded DER: the text determines the bytes, so a hit
/// means the very certificates validated before, and a hit costs no base64 decoding.
final class ChainCache: @unchecked Sendable {
    struct Key: Hashable {
        let leaf: String
        let intermediate: String

        /// Hashes lengths and the last 48 characters of each certificate (its signature, which differs
        /// between any two certificates) instead of ~2.6 KB per lookup; equality still compares everything.
        func hash(into hasher: inout Hasher) {
            hasher.combine(leaf.utf8.count)
            hasher.combine(intermediate.utf8.count)
            for byte in leaf.utf8.suffix(48) { hasher.combine(byte) }
            for byte in intermediate.utf8.suffix(48) { hasher.combine(byte) }
        }
    }

    private let lock = NSLock()
    private var entries: [Key: VerifiedChain] = [:]
    private var validations = 0
    private let validationLock = NSLock()
    private let limit: Int

    /// A cache holding at most `limit` chains (emptied when full; Apple rotates chains rarely).
    init(limit: Int) {
        self.limit = limit
    }

    /// How many full validations ran so far.
    var validationCount: Int {
        lock.withLock { validations }
    }

    /// The cached chain for `key` if it covers `time`, otherwise the result of `validate`
    /// (run under a lock, so concurrent first uses of one chain validate it once). Failures are not cached.
    func chain(for key: Key, at time: Int, validate: () -> ChainOutcome) -> ChainOutcome {
        if let hit = lookup(key, at: time) { return .valid(hit) }
        return validationLock.withLock {
            if let hit = lookup(key, at: time) { return .valid(hit) }
            lock.withLock { validations += 1 }
            let outcome = validate()
            if case let .valid(chain) = outcome {
                lock.withLock {
                    if entries.count >= limit, entries[key] == nil { entries.removeAll() }
                    entries[key] = chain
                }
            }
            return outcome
        }
    }

    private func lookup(_ key: Key, at time: Int) -> VerifiedChain? {
        guard let chain = lock.withLock({ entries[key] }), chain.covers(time) else { return nil }
        return chain
    }
}
