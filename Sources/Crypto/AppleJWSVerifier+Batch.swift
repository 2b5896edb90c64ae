import Dispatch
import Foundation

extension AppleJWSVerifier {
    /// Verifies many payloads of `kind` on all cores (`DispatchQueue.concurrentPerform`); results are in input order.
    public func verifyBatch<Value: Decodable & Sendable>(_ payloads: [String], as type: Value.Type, kind: ApplePayloadKind,
                                                         chunkSize: Int = 64) -> [JWSVerificationResult<Value>] {
        batch(payloads, chunkSize: chunkSize) { verify($0, as: type, kind: kind) }
    }

    /// Verifies many payloads on all cores, each as the kind its fields show, decoded as a generic JSON value.
    public func verifyBatch(_ payloads: [String]) -> [JWSVerificationResult<JSONValue>] {
        batch(payloads, chunkSize: 64) { verify($0) }
    }

    private func batch<Value: Sendable>(_ payloads: [String], chunkSize: Int,
                                        _ one: @Sendable (String) -> JWSVerificationResult<Value>) -> [JWSVerificationResult<Value>] {
        let count = payloads.count
        guard count > 0 else { return [] }
        let chunk = max(1, chunkSize)
        let chunks = (count + chunk - 1) / chunk
        return [JWSVerificationResult<Value>](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            // Each chunk initialises a disjoint slice of the buffer exactly once.
            nonisolated(unsafe) let output = base
            DispatchQueue.concurrentPerform(iterations: chunks) { chunkIndex in
                let start = chunkIndex * chunk
                for index in start..<min(start + chunk, count) {
                    (output + index).initialize(to: one(payloads[index]))
                }
            }
            initialized = count
        }
    }
}
