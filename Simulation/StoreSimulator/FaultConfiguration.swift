import Foundation

/// How often each fault kind is injected, and how long a simulated timeout stalls.
public struct FaultConfiguration: Sendable, Equatable {
    /// Probability per request of each kind; the sum is at most 1.
    public var rates: [TransportFault: Double]
    /// How long a `timeout` fault delays the answer; set it above the client's timeout.
    public var timeoutSeconds: Double
    /// How long a `429` storm lasts on its endpoint.
    public var stormSeconds: Double = 1
    /// The body size an `oversized` fault pads a response to.
    public var oversizedBytes: Int = 16 << 20

    /// Makes a configuration; throws when a rate is outside 0…1 or the rates sum above 1.
    public init(rates: [TransportFault: Double] = [:], timeoutSeconds: Double = 35) throws(SimulatorError) {
        for (kind, rate) in rates where !(0...1).contains(rate) {
            throw .invalidOption("fault rate for \(kind.rawValue) must be within 0…1, got \(rate)")
        }
        let total = rates.values.reduce(0, +)
        guard total <= 1 + 1e-9 else { throw .invalidOption("fault rates sum to \(total), more than 1") }
        guard timeoutSeconds >= 0 else { throw .invalidOption("timeout seconds must not be negative") }
        self.rates = rates.filter { $0.value > 0 }
        self.timeoutSeconds = timeoutSeconds
    }

    /// No faults.
    public static let none = FaultConfiguration(unchecked: [:], timeoutSeconds: 35)

    private init(unchecked rates: [TransportFault: Double], timeoutSeconds: Double) {
        self.rates = rates
        self.timeoutSeconds = timeoutSeconds
    }

    /// Parses `--faults` text: `kind=rate,…` plus optional `timeout-seconds=N`, `storm-seconds=N` and
    /// `oversized-bytes=N`, e.g. `5xx=0.05,timeout=0.02,429=0.01,storm-seconds=2`.
    public static func parse(_ text: String) throws(SimulatorError) -> FaultConfiguration {
        var rates: [TransportFault: Double] = [:]
        var timeoutSeconds = 35.0
        var stormSeconds = 1.0
        var oversizedBytes = 16.0 * 1024 * 1024
        for item in text.split(separator: ",") where !item.trimmingCharacters(in: .whitespaces).isEmpty {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, let value = Double(pair[1]) else {
                throw .invalidOption("--faults: \"\(item)\" is not kind=number")
            }
            if pair[0] == "timeout-seconds" {
                timeoutSeconds = value
            } else if pair[0] == "storm-seconds" {
                stormSeconds = value
            } else if pair[0] == "oversized-bytes" {
                oversizedBytes = value
            } else if let kind = TransportFault(name: pair[0]) {
                rates[kind] = value
            } else {
                throw .invalidOption("--faults: unknown kind \"\(pair[0])\"; known: "
                    + TransportFault.allCases.map(\.rawValue).joined(separator: ", ") + ", timeout-seconds, storm-seconds, oversized-bytes")
            }
        }
        guard stormSeconds >= 0, oversizedBytes >= 0, oversizedBytes <= Double(1 << 30) else {
            throw .invalidOption("--faults: storm-seconds must not be negative and oversized-bytes must be within 0…1 GiB")
        }
        var configuration = try FaultConfiguration(rates: rates, timeoutSeconds: timeoutSeconds)
        configuration.stormSeconds = stormSeconds
        configuration.oversizedBytes = Int(oversizedBytes)
        return configuration
    }
}
