// Fuzz target: compact JWS and JSON decoding — the verifier (header, x5c chain, signature, claims) against a fixed
// root, the JSON parser, the claims reader, and the store payload types decoded from JSON. Built and run by
// Benchmarks/fuzz/run.sh, which sets FUZZ_JWS_ROOT to the committed test root (Benchmarks/fuzz/jws-root.der).
import BillingCore
import Crypto
import Foundation

let verifier: AppleJWSVerifier? = {
    guard let root = ProcessInfo.processInfo.environment["FUZZ_JWS_ROOT"] else { return nil }
    return try? AppleJWSVerifier(configuration: JWSVerifierConfiguration(
        trustedRootFiles: [root], bundleId: "com.example.fitness", appAppleId: 1_478_523_690, environment: .production))
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWS(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    if let verifier {
        _ = verifier.verify(text)
        _ = verifier.verifyTransaction(text, as: JWSTransactionDecodedPayload.self)
    }
    _ = CompactJWS.claims(text)
    _ = try? JSONValue.parse(bytes)
    let decoder = JSONDecoder()
    _ = try? decoder.decode(JWSTransactionDecodedPayload.self, from: bytes)
    _ = try? decoder.decode(JWSRenewalInfoDecodedPayload.self, from: bytes)
    _ = try? decoder.decode(ResponseBodyV2DecodedPayload.self, from: bytes)
    _ = try? decoder.decode(SubscriptionPurchaseV2.self, from: bytes)
    _ = try? decoder.decode(PubSubMessage.self, from: bytes)
    return 0
}
