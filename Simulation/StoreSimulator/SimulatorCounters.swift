import Foundation

/// What the simulator served: requests by endpoint and outcome, 429s, and faults by kind.
public struct SimulatorCounters: Sendable, Equatable {
    /// endpoint → outcome (HTTP status such as "200", or "reset") → count.
    public var requests: [SimulatorEndpoint: [String: Int]] = [:]
    /// Requests rejected by a rate limit.
    public var rateLimited = 0
    /// Faults actually injected, by kind.
    public var faults: [TransportFault: Int] = [:]

    /// Empty counters.
    public init() {}

    /// All requests served.
    public var totalRequests: Int {
        requests.values.reduce(0) { $0 + $1.values.reduce(0, +) }
    }

    /// Requests of `endpoint` with `outcome` (e.g. "200"); every outcome when nil.
    public func count(_ endpoint: SimulatorEndpoint, outcome: String? = nil) -> Int {
        guard let outcomes = requests[endpoint] else { return 0 }
        if let outcome { return outcomes[outcome] ?? 0 }
        return outcomes.values.reduce(0, +)
    }

    /// One JSON object with sorted keys: `{"faults":{…},"rate_limited":N,"requests":{endpoint:{outcome:N}},"total":N}`.
    public func jsonLine() -> String {
        let requestsJSON = requests.keys.sorted().map { endpoint in
            let outcomes = (requests[endpoint] ?? [:]).sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }
            return "\"\(endpoint.rawValue)\":{\(outcomes.joined(separator: ","))}"
        }
        let faultsJSON = faults.keys.sorted().map { "\"\($0.rawValue)\":\(faults[$0] ?? 0)" }
        return "{\"faults\":{\(faultsJSON.joined(separator: ","))},\"rate_limited\":\(rateLimited),"
            + "\"requests\":{\(requestsJSON.joined(separator: ","))},\"total\":\(totalRequests)}"
    }
}

/// The lock-protected live counters behind `StoreSimulator.counters`.
final class CounterStore: @unchecked Sendable {
    private let lock = NSLock()
    private var counters = SimulatorCounters()

    /// Records one request's outcome and the fault injected into it, if any.
    func record(_ endpoint: SimulatorEndpoint, outcome: String, fault: TransportFault?, rateLimited: Bool) {
        lock.withLock {
            counters.requests[endpoint, default: [:]][outcome, default: 0] += 1
            if rateLimited { counters.rateLimited += 1 }
            if let fault { counters.faults[fault, default: 0] += 1 }
        }
    }

    /// A copy of the counters now.
    var snapshot: SimulatorCounters {
        lock.withLock { counters }
    }
}
