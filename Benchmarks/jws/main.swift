// bench-jws: verify-and-decode throughput of AppleJWSVerifier on signed App Store transactions, so
// Benchmarks/run.sh can compare it with Apple's Python library (Benchmarks/peers/apple_verify.py) on the same file.
//   bench-jws generate <folder> <count>      root.pem, root.der, transactions.jws (one JWS per line, one chain)
//   bench-jws verify <folder> [--threads N]  one `bench-jws measure=…` line per measurement; exit 1 on any failure
import BillingCore
import Crypto
import Foundation

/// Seconds in `duration`.
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The median of `values` (mean of the middle two for an even count).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Counts results that are not a verified transaction with a transactionId; prints the first rejection.
func failures(_ results: some Sequence<JWSVerificationResult<JWSTransactionDecodedPayload>>) -> Int {
    var count = 0
    for result in results where result.value?.transactionId == nil {
        if count == 0 { FileHandle.standardError.write(Data("bench-jws: rejected: \(result)\n".utf8)) }
        count += 1
    }
    return count
}

/// A verifier for the generated app, trusting `folder`/root.der, production environment.
func makeVerifier(folder: String) throws -> AppleJWSVerifier {
    try AppleJWSVerifier(configuration: JWSVerifierConfiguration(
        trustedRootFiles: [URL(fileURLWithPath: folder).appendingPathComponent("root.der").path],
        bundleId: BenchApp.bundleId, appAppleId: BenchApp.appAppleId, environment: .production))
}

/// Prints one machine-readable measurement line (`failures` summed over all runs) and returns `failed`.
@discardableResult
func report(_ name: String, threads: Int, payloads: Int, runs: [Double], failed: Int, extra: String = "") -> Int {
    let time = median(runs)
    let all = runs.map { String(format: "%.4f", $0) }.joined(separator: ",")
    print("bench-jws measure=\(name) threads=\(threads) payloads=\(payloads) seconds=\(String(format: "%.4f", time)) "
        + "per_second=\(String(format: "%.0f", Double(payloads) / time)) runs=\(all) failures=\(failed)\(extra)")
    return failed
}

/// Verifies `payloads` on `threads` threads, each taking one contiguous slice with `verifyTransaction(_:as:)`; returns the failures.
func verifyOnThreads(_ payloads: [String], threads: Int, verifier: AppleJWSVerifier) -> Int {
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var failed = 0
        func add(_ count: Int) { lock.withLock { failed += count } }
        var total: Int { lock.withLock { failed } }
    }
    let tally = Tally()
    let done = DispatchSemaphore(value: 0)
    let slice = (payloads.count + threads - 1) / threads
    for index in 0..<threads {
        let range = min(index * slice, payloads.count)..<min((index + 1) * slice, payloads.count)
        Thread {
            tally.add(failures(payloads[range].lazy.map { verifier.verifyTransaction($0, as: JWSTransactionDecodedPayload.self) }))
            done.signal()
        }.start()
    }
    for _ in 0..<threads { done.wait() }
    return tally.total
}

/// Times cold (fresh verifier, chain validation included), warm single-thread, and warm parallel verification;
/// returns how many verifications failed in all.
func verify(folder: String, threads: Int?) throws -> Int {
    let file = URL(fileURLWithPath: folder).appendingPathComponent("transactions.jws")
    let payloads = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
    guard !payloads.isEmpty else { throw CryptoError.invalidArgument("no payloads in \(file.path)") }
    let clock = ContinuousClock()
    let repeats = 3

    // (a) cold: a fresh verifier, one thread; the first payload pays for the full path validation.
    let verifier = try makeVerifier(folder: folder)
    var coldFailed = 0
    var firstPayload = Duration.zero
    let cold = clock.measure {
        firstPayload = clock.measure { coldFailed += failures([verifier.verifyTransaction(payloads[0], as: JWSTransactionDecodedPayload.self)]) }
        coldFailed += failures(payloads.dropFirst().lazy.map { verifier.verifyTransaction($0, as: JWSTransactionDecodedPayload.self) })
    }
    var failed = report("cold", threads: 1, payloads: payloads.count, runs: [seconds(cold)], failed: coldFailed,
           extra: " first_payload_ms=\(String(format: "%.3f", seconds(firstPayload) * 1000)) chain_validations=\(verifier.chainVerificationCount)")

    // (c) warm, one thread: the same verifier, its chain cached.
    var singleRuns: [Double] = []
    var singleFailed = 0
    for _ in 0..<repeats {
        singleRuns.append(seconds(clock.measure {
            singleFailed += failures(payloads.lazy.map { verifier.verifyTransaction($0, as: JWSTransactionDecodedPayload.self) })
        }))
    }
    failed += report("warm", threads: 1, payloads: payloads.count, runs: singleRuns, failed: singleFailed)

    // (b) warm, all cores: verifyBatch (DispatchQueue.concurrentPerform), or N explicit threads with --threads.
    var batchRuns: [Double] = []
    var batchFailed = 0
    let width = threads ?? ProcessInfo.processInfo.activeProcessorCount
    for _ in 0..<repeats {
        batchRuns.append(seconds(clock.measure {
            if let threads {
                batchFailed += verifyOnThreads(payloads, threads: threads, verifier: verifier)
            } else {
                batchFailed += failures(verifier.verifyBatch(payloads, as: JWSTransactionDecodedPayload.self, kind: .transaction))
            }
        }))
    }
    failed += report(threads == nil ? "warm_batch" : "warm_threads", threads: width, payloads: payloads.count, runs: batchRuns,
           failed: batchFailed, extra: " chain_validations=\(verifier.chainVerificationCount)")
    return failed
}

let arguments = CommandLine.arguments
var failed = 0
do {
    switch (arguments.count > 1 ? arguments[1] : "", arguments.count) {
    case ("generate", 4):
        guard let count = Int(arguments[3]), count > 0 else { throw CryptoError.invalidArgument("count must be a positive integer") }
        try generate(folder: arguments[2], count: count)
    case ("verify", 3):
        failed = try verify(folder: arguments[2], threads: nil)
    case ("verify", 5) where arguments[3] == "--threads":
        guard let threads = Int(arguments[4]), threads > 0 else { throw CryptoError.invalidArgument("--threads needs a positive integer") }
        failed = try verify(folder: arguments[2], threads: threads)
    default:
        FileHandle.standardError.write(Data("usage: bench-jws generate <folder> <count> | verify <folder> [--threads N]\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("bench-jws: \(error)\n".utf8))
    exit(1)
}
if failed > 0 {
    FileHandle.standardError.write(Data("bench-jws: \(failed) verifications failed\n".utf8))
    exit(1)
}
