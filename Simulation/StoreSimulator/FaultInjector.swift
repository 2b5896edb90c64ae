import SeededRandom

/// Decides, reproducibly, which fault (if any) request number `n` gets: a pure function of seed and `n`.
struct FaultInjector: Sendable {
    let seed: UInt64
    let configuration: FaultConfiguration
    /// Cumulative upper bounds in `TransportFault.allCases` order.
    private let thresholds: [(TransportFault, Double)]

    init(seed: UInt64, configuration: FaultConfiguration) {
        self.seed = seed
        self.configuration = configuration
        var total = 0.0
        thresholds = TransportFault.allCases.compactMap { kind in
            guard let rate = configuration.rates[kind], rate > 0 else { return nil }
            total += rate
            return (kind, total)
        }
    }

    /// The fault drawn for request `number`; nil when none was drawn or the drawn kind does not apply to `endpoint`.
    func fault(forRequest number: UInt64, endpoint: SimulatorEndpoint) -> TransportFault? {
        guard !thresholds.isEmpty else { return nil }
        var generator = SplitMix64(seed: seed ^ SplitMix64.mix(number &+ 0x5EED))
        let draw = generator.nextUnit()
        guard let kind = thresholds.first(where: { draw < $0.1 })?.0, kind.applies(to: endpoint) else { return nil }
        return kind
    }

    /// A second reproducible draw for request `number` (e.g. which 5xx code to use).
    func variant(forRequest number: UInt64) -> UInt64 {
        SplitMix64.mix(seed &+ number &* 0x9E37_79B9)
    }
}
