/// A series whose value crossed a rule's bound.
public struct ThresholdBreach: Sendable, Equatable, CustomStringConvertible {
    public let series: String
    public let value: Double
    public let rule: ThresholdRule

    /// `iap_x{provider="apple"} = 3 (> 0, thresholds line 4)`.
    public var description: String {
        "\(series) = \(PrometheusText.format(value)) (\(rule.comparison.rawValue) \(PrometheusText.format(rule.bound)), thresholds line \(rule.line))"
    }
}

/// Checks metric families against threshold rules.
public enum ThresholdCheck {
    /// A rule names a metric this job does not write (a typo would otherwise silence an alert).
    public struct UnknownMetric: Error, CustomStringConvertible {
        public let rule: ThresholdRule
        public var description: String { "thresholds line \(rule.line) names '\(rule.metric)', which drift-counts does not write" }
    }

    /// Every breached series, in family and sample order; throws when a rule names an unknown metric.
    public static func breaches(_ families: [MetricFamily], rules: [ThresholdRule]) throws -> [ThresholdBreach] {
        let names = Set(families.map(\.name))
        if let unknown = rules.first(where: { !names.contains($0.metric) }) { throw UnknownMetric(rule: unknown) }
        var found: [ThresholdBreach] = []
        for family in families {
            for sample in family.samples {
                for rule in rules where rule.applies(to: family, sample) && rule.isBreached(by: sample.value) {
                    found.append(ThresholdBreach(series: PrometheusText.seriesName(family.name, sample.labels), value: sample.value, rule: rule))
                }
            }
        }
        return found
    }
}
