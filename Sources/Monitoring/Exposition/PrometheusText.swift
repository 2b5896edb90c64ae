/// Renders metric families in the Prometheus text exposition format (version 0.0.4): a `# HELP` and a `# TYPE`
/// line per family, then one line per sample, label values escaped, families in the order given.
public enum PrometheusText {
    /// The whole exposition, ending with a newline.
    public static func render(_ families: [MetricFamily]) -> String {
        var lines: [String] = []
        for family in families {
            lines.append("# HELP \(family.name) \(escapeHelp(family.help))")
            lines.append("# TYPE \(family.name) \(family.kind.rawValue)")
            for sample in family.samples {
                lines.append(seriesName(family.name, sample.labels) + " " + format(sample.value))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `name{label="value",…}`, or the bare name without labels.
    public static func seriesName(_ name: String, _ labels: [MetricLabel]) -> String {
        guard !labels.isEmpty else { return name }
        return name + "{" + labels.map { "\($0.name)=\"\(escapeLabel($0.value))\"" }.joined(separator: ",") + "}"
    }

    /// A sample value: whole numbers without a fraction, `+Inf`, `-Inf`, `NaN`, otherwise Swift's shortest form.
    public static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    private static func escapeHelp(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    private static func escapeLabel(_ text: String) -> String {
        escapeHelp(text).replacingOccurrences(of: "\"", with: "\\\"")
    }
}
