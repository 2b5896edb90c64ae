import Crypto
import Foundation
import TestCertificates

/// Signs Apple payloads as compact ES256 JWS with `x5c = [leaf, intermediate, root]`.
struct PayloadSigner: Sendable {
    let signer: ES256Signer
    let headerJSON: Data
    let bundleId: String
    let cache = SignatureCache(limit: 100_000)

    init(authority: TestCertificateAuthority, bundleId: String) {
        signer = authority.leafSigner
        headerJSON = Responses.encode(.object([
            "alg": .string("ES256"), "x5c": .array(authority.x5c.map { .string($0) }),
        ]))
        self.bundleId = bundleId
    }

    /// The JWS over `payload` (sorted-key JSON); `signedDate` is added as `now` when the truth lacks it.
    /// `corrupt` flips a bit of the signature; `foreignBundle` re-labels the payload with another bundleId;
    /// `expired` dates the signature a day after the certificates' validity ends.
    func sign(_ payload: JSONValue, now: Date, corrupt: Bool = false, foreignBundle: Bool = false, expired: Bool = false) throws -> String {
        var payload = payload
        if expired {
            let afterValidity = TestCertificateAuthority.defaultValidUntil.addingTimeInterval(86_400)
            payload = payload.setting("signedDate", .integer(Responses.milliseconds(afterValidity)))
        } else if payload["signedDate"] == nil {
            payload = payload.setting("signedDate", .integer(Responses.milliseconds(now)))
        }
        if foreignBundle {
            let other = JSONValue.string(bundleId + ".impostor")
            if let data = payload["data"], data.members != nil {
                payload = payload.setting("data", data.setting("bundleId", other))
            } else {
                payload = payload.setting("bundleId", other)
            }
        }
        let payloadJSON = Responses.encode(payload)
        if corrupt {
            return try CompactJWS.assemble(headerJSON: headerJSON, payloadJSON: payloadJSON,
                                           signer: CorruptingSigner(inner: signer))
        }
        if let cached = cache.value(for: payloadJSON) { return cached }
        let jws = try CompactJWS.assemble(headerJSON: headerJSON, payloadJSON: payloadJSON, signer: signer)
        cache.store(jws, for: payloadJSON)
        return jws
    }
}

/// Correct JWS by payload bytes: the same payload is served with the same signature, and signed once.
final class SignatureCache: @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    private var entries: [Data: String] = [:]

    init(limit: Int) {
        self.limit = limit
    }

    func value(for payload: Data) -> String? {
        lock.withLock { entries[payload] }
    }

    /// Stores `jws`; the cache is emptied when it reaches its limit.
    func store(_ jws: String, for payload: Data) {
        lock.withLock {
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[payload] = jws
        }
    }
}

/// Signs correctly, then flips one bit of r, so the JWS is well-formed but does not verify.
private struct CorruptingSigner: JWTSigner {
    let inner: ES256Signer
    var algorithm: String { inner.algorithm }

    func sign(_ message: Data) throws -> Data {
        var signature = try inner.sign(message)
        if !signature.isEmpty { signature[signature.startIndex + 7] ^= 0x01 }
        return signature
    }
}

/// The signing context of one request: the time, and the payload fault to apply (recording whether it was).
final class SigningSession {
    let signer: PayloadSigner
    let now: Date
    /// `invalidSignature`, `wrongBundleId`, `expiredSignature` or `staleState` when one was drawn for this request.
    let fault: TransportFault?
    /// Set once the fault actually changed something in the response.
    private(set) var faultApplied = false

    init(signer: PayloadSigner, now: Date, fault: TransportFault?) {
        self.signer = signer
        self.now = now
        self.fault = fault
    }

    /// Signs `payload`; `faultable: false` keeps nested payloads (inside a signed notification) correct.
    func sign(_ payload: JSONValue, faultable: Bool = true) throws -> String {
        let corrupt = faultable && fault == .invalidSignature
        let foreign = faultable && fault == .wrongBundleId
        let expired = faultable && fault == .expiredSignature
        if corrupt || foreign || expired { faultApplied = true }
        return try signer.sign(payload, now: now, corrupt: corrupt, foreignBundle: foreign, expired: expired)
    }

    /// True when this request should serve stale state; marks the fault applied.
    func takeStaleState() -> Bool {
        guard fault == .staleState else { return false }
        faultApplied = true
        return true
    }
}
