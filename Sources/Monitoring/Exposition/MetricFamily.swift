/// One metric with its help text, type and samples, as the Prometheus text exposition format groups them.
public struct MetricFamily: Sendable, Equatable {
    /// The Prometheus metric types this job writes.
    public enum Kind: String, Sendable { case gauge, counter }

    public let name: String
    public let help: String
    public let kind: Kind
    public var samples: [MetricSample]

    /// A family named `name` (snake_case, `iap_` prefix, base unit suffix) with `samples`.
    public init(name: String, help: String, kind: Kind = .gauge, samples: [MetricSample]) {
        self.name = name
        self.help = help
        self.kind = kind
        self.samples = samples
    }
}

/// One series of a family: its labels (in the order written) and its value.
public struct MetricSample: Sendable, Equatable {
    public let labels: [MetricLabel]
    public let value: Double

    /// A sample with `labels` given as name/value pairs in the order they are written.
    public init(_ labels: [(String, String)], _ value: Double) {
        self.labels = labels.map { MetricLabel(name: $0.0, value: $0.1) }
        self.value = value
    }

    /// The value of label `name`, if the sample carries it.
    public func label(_ name: String) -> String? { labels.first { $0.name == name }?.value }
}

/// A label name and value.
public struct MetricLabel: Sendable, Equatable {
    public let name: String
    public let value: String

    /// A label `name="value"`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
