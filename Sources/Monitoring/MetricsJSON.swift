import Foundation
import JobKit
import Postgres

/// The metrics as one JSON document for tools: `{"as_of":…,"breaches":[…],"metrics":[{"name","type","help","samples"}]}`.
/// Values are JSON numbers; infinities are the strings `"+Inf"` / `"-Inf"` (JSON has no infinity).
public enum MetricsJSON {
    /// Renders `families` and `breaches` as of `asOf`, keys sorted, one line.
    public static func render(_ families: [MetricFamily], breaches: [ThresholdBreach], asOf: Date) -> String {
        let metrics = families.map { family in
            let samples = family.samples.map { sample in
                let labels = "{" + sample.labels.map { JSONLine.quote($0.name) + ":" + JSONLine.quote($0.value) }.joined(separator: ",") + "}"
                return "{\"labels\":\(labels),\"value\":\(value(sample.value))}"
            }
            return "{\"help\":\(JSONLine.quote(family.help)),\"name\":\(JSONLine.quote(family.name)),"
                + "\"samples\":[\(samples.joined(separator: ","))],\"type\":\(JSONLine.quote(family.kind.rawValue))}"
        }
        let breached = breaches.map { JSONLine.quote($0.description) }
        return "{\"as_of\":\(JSONLine.quote(PostgresTimestamp.iso8601(asOf))),\"breaches\":[\(breached.joined(separator: ","))],"
            + "\"metrics\":[\(metrics.joined(separator: ","))]}\n"
    }

    private static func value(_ value: Double) -> String {
        value.isFinite ? PrometheusText.format(value) : JSONLine.quote(PrometheusText.format(value))
    }
}
