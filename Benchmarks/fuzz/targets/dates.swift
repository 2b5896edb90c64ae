// Fuzz target: RFC 3339 timestamps (Google) and Apple dates (milliseconds as a JSON number or numeric string).
// Built and run by Benchmarks/fuzz/run.sh.
import BillingCore
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDates(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    if let parsed = try? RFC3339Timestamp(text) {
        // A parsed timestamp's canonical text must parse back to the same instant (the oracle: a crash otherwise).
        guard let again = try? RFC3339Timestamp(parsed.description), again == parsed else {
            fatalError("RFC 3339 round trip failed for \(text.debugDescription) -> \(parsed.description)")
        }
    }
    _ = try? JSONDecoder().decode([AppleTimestamp].self, from: Data("[".utf8) + bytes + Data("]".utf8))
    _ = try? JSONDecoder().decode([RFC3339Timestamp].self, from: Data("[\"".utf8) + bytes + Data("\"]".utf8))
    return 0
}
