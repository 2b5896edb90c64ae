/// One line of a thresholds file: a metric, the labels a series must carry, and the bound it must not cross.
public struct ThresholdRule: Sendable, Equatable {
    /// Which side of the bound is a breach.
    public enum Comparison: String, Sendable { case greaterThan = ">", lessThan = "<" }

    public let metric: String
    /// Labels a series must carry (with these values) for the rule to apply; empty applies to every series.
    public let labels: [MetricLabel]
    public let comparison: Comparison
    public let bound: Double
    /// The line of the file the rule came from (1-based), for messages.
    public let line: Int

    /// True when `sample` of `family` is one this rule watches.
    public func applies(to family: MetricFamily, _ sample: MetricSample) -> Bool {
        family.name == metric && labels.allSatisfy { sample.label($0.name) == $0.value }
    }

    /// True when `value` crosses the bound.
    public func isBreached(by value: Double) -> Bool {
        switch comparison {
        case .greaterThan: return value > bound
        case .lessThan: return value < bound
        }
    }
}
