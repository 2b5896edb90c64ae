import Foundation

/// Parses a thresholds file: one rule per line, `metric_name{label="value",…} > number` (or `<`), the braces
/// optional; blank lines and lines starting with `#` are ignored. The format is documented in docs/MONITORING.md.
public enum ThresholdFile {
    /// A line that is not a rule.
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let line: Int
        public let message: String
        public var description: String { "thresholds line \(line): \(message)" }
    }

    /// Reads and parses the file at `path`.
    public static func load(path: String) throws -> [ThresholdRule] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ParseError(line: 0, message: "cannot read '\(path)'")
        }
        return try parse(text)
    }

    /// Parses the rules of `text`.
    public static func parse(_ text: String) throws -> [ThresholdRule] {
        var rules: [ThresholdRule] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            rules.append(try parseRule(line, number: index + 1))
        }
        return rules
    }

    private static func parseRule(_ line: String, number: Int) throws -> ThresholdRule {
        var scanner = Substring(line)
        let name = scanner.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }
        guard let first = name.first, !first.isNumber else { throw ParseError(line: number, message: "expected a metric name in '\(line)'") }
        scanner = scanner.dropFirst(name.count)
        var labels: [MetricLabel] = []
        if scanner.first == "{" {
            guard let close = scanner.firstIndex(of: "}") else { throw ParseError(line: number, message: "missing '}'") }
            labels = try parseLabels(scanner[scanner.index(after: scanner.startIndex)..<close], number: number)
            scanner = scanner[scanner.index(after: close)...]
        }
        scanner = scanner.drop { $0 == " " || $0 == "\t" }
        guard let symbol = scanner.first, let comparison = ThresholdRule.Comparison(rawValue: String(symbol)) else {
            throw ParseError(line: number, message: "expected '>' or '<' after the series in '\(line)'")
        }
        let boundText = scanner.dropFirst().trimmingCharacters(in: .whitespaces)
        guard let bound = Double(boundText), bound.isFinite else {
            throw ParseError(line: number, message: "expected a number after '\(symbol)', not '\(boundText)'")
        }
        return ThresholdRule(metric: String(name), labels: labels, comparison: comparison, bound: bound, line: number)
    }

    private static func parseLabels(_ text: Substring, number: Int) throws -> [MetricLabel] {
        var labels: [MetricLabel] = []
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            let name = parts.first?.trimmingCharacters(in: .whitespaces) ?? ""
            let quoted = parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            guard !name.isEmpty, quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") else {
                throw ParseError(line: number, message: "labels are written name=\"value\", not '\(pair)'")
            }
            labels.append(MetricLabel(name: name, value: String(quoted.dropFirst().dropLast())))
        }
        return labels
    }
}
