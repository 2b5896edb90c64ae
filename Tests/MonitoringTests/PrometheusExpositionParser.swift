import Foundation

/// An independent reader of the Prometheus text exposition format (version 0.0.4) that also checks the naming
/// conventions this project follows. It is written from the format's published description (prometheus.io,
/// "Exposition formats" and "Metric and label naming"), not from the writer, so the two can disagree.
struct PrometheusExposition {
    /// One parsed sample line.
    struct Sample: Equatable {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    /// One family: its HELP, TYPE and samples.
    struct Family {
        var help: String?
        var type: String?
        var samples: [Sample] = []
    }

    private(set) var families: [String: Family] = [:]
    private(set) var order: [String] = []

    /// The value of the series `name` with exactly `labels`, if present.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        families[name]?.samples.first { $0.labels == labels }?.value
    }

    /// Parses `text`, throwing a message naming the line for any violation of the format.
    init(_ text: String) throws {
        guard text.hasSuffix("\n") else { throw Violation("the exposition must end with a line feed") }
        var seenSeries = Set<String>()
        var current: String?
        for (index, line) in text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
                guard parts.count >= 3, parts[1] == "HELP" || parts[1] == "TYPE" else { continue }
                let name = String(parts[2])
                guard Self.isMetricName(name) else { throw Violation("line \(number): bad metric name '\(name)'") }
                try enter(name, line: number, current: &current)
                let rest = parts.count == 4 ? String(parts[3]) : ""
                if parts[1] == "HELP" {
                    guard families[name]?.help == nil else { throw Violation("line \(number): second HELP for \(name)") }
                    families[name]?.help = try Self.unescape(rest, allowQuote: false, line: number)
                } else {
                    guard families[name]?.type == nil, families[name]?.samples.isEmpty == true else {
                        throw Violation("line \(number): TYPE for \(name) must come once, before its samples")
                    }
                    guard ["counter", "gauge", "histogram", "summary", "untyped"].contains(rest) else {
                        throw Violation("line \(number): unknown type '\(rest)'")
                    }
                    families[name]?.type = rest
                }
                continue
            }
            let sample = try Self.sample(String(line), line: number)
            try enter(sample.name, line: number, current: &current)
            let key = sample.name + "{" + sample.labels.keys.sorted().map { "\($0)=\(sample.labels[$0] ?? "")" }.joined(separator: ",") + "}"
            guard seenSeries.insert(key).inserted else { throw Violation("line \(number): duplicate series \(key)") }
            families[sample.name]?.samples.append(sample)
        }
    }

    /// Starts or continues family `name`; a family's lines must be contiguous.
    private mutating func enter(_ name: String, line: Int, current: inout String?) throws {
        if current == name { return }
        guard families[name] == nil else { throw Violation("line \(line): the lines of \(name) are not contiguous") }
        families[name] = Family()
        order.append(name)
        current = name
    }

    /// `name{label="value",…} value [timestamp]`.
    private static func sample(_ line: String, line number: Int) throws -> Sample {
        var rest = Substring(line)
        let name = String(rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") })
        guard isMetricName(name) else { throw Violation("line \(number): bad metric name in '\(line)'") }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let labelName = String(rest.prefix { $0 != "=" })
                guard isLabelName(labelName), !labelName.hasPrefix("__") else { throw Violation("line \(number): bad label name '\(labelName)'") }
                rest = rest.dropFirst(labelName.count)
                guard rest.hasPrefix("=\"") else { throw Violation("line \(number): label \(labelName) needs =\"…\"") }
                rest = rest.dropFirst(2)
                var raw = ""
                var escaped = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if escaped { raw.append("\\"); raw.append(character); escaped = false; continue }
                    if character == "\\" { escaped = true; continue }
                    if character == "\"" { break }
                    raw.append(character)
                }
                guard labels[labelName] == nil else { throw Violation("line \(number): label \(labelName) twice") }
                labels[labelName] = try unescape(raw, allowQuote: true, line: number)
                if rest.first == "," { rest = rest.dropFirst() } else if rest.first != "}" {
                    throw Violation("line \(number): expected ',' or '}' in '\(line)'")
                }
            }
            rest = rest.dropFirst()
        }
        let fields = rest.split(separator: " ")
        guard rest.first == " ", fields.count == 1 || fields.count == 2 else { throw Violation("line \(number): expected ' value [timestamp]' in '\(line)'") }
        guard let value = parseValue(String(fields[0])) else { throw Violation("line \(number): bad value '\(fields[0])'") }
        if fields.count == 2, Int64(fields[1]) == nil { throw Violation("line \(number): bad timestamp '\(fields[1])'") }
        return Sample(name: name, labels: labels, value: value)
    }

    private static func parseValue(_ text: String) -> Double? {
        switch text {
        case "+Inf": return .infinity
        case "-Inf": return -.infinity
        case "NaN": return .nan
        default:
            guard text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }) else { return nil }
            return Double(text)
        }
    }

    private static func unescape(_ text: String, allowQuote: Bool, line: Int) throws -> String {
        var out = ""
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            guard character == "\\" else {
                if character == "\n" { throw Violation("line \(line): raw line feed") }
                out.append(character)
                continue
            }
            let next = iterator.next()
            if next == "\\" {
                out.append("\\")
            } else if next == "n" {
                out.append("\n")
            } else if next == "\"", allowQuote {
                out.append("\"")
            } else {
                throw Violation("line \(line): bad escape in '\(text)'")
            }
        }
        return out
    }

    static func isMetricName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter || first == "_" || first == ":" else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") }
    }

    static func isLabelName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// The project's naming conventions (prometheus.io "Metric and label naming"): an `iap_` namespace, lower snake
    /// case, counters ending in `_total` and nothing else, no reserved histogram/summary suffixes on gauges, base units
    /// (`_seconds`, never minutes/hours/ms), every family with HELP and TYPE, low-cardinality labels (no identifiers,
    /// at most `maxSeries` series a family). Returns every broken rule.
    func conventionViolations(maxSeries: Int = 64) -> [String] {
        var found: [String] = []
        let identifierLabels: Set<String> = ["id", "subscription_id", "purchase_token", "transaction_id", "order_id", "user_id", "account_id"]
        for name in order {
            guard let family = families[name] else { continue }
            if !name.hasPrefix("iap_") { found.append("\(name): not in the iap_ namespace") }
            if name != name.lowercased() || name.contains("__") || name.contains(":") { found.append("\(name): not lower snake case") }
            if family.help?.isEmpty ?? true { found.append("\(name): no HELP") }
            if family.type == nil { found.append("\(name): no TYPE") }
            if family.type == "counter", !name.hasSuffix("_total") { found.append("\(name): a counter must end in _total") }
            if family.type != "counter", name.hasSuffix("_total") { found.append("\(name): only counters end in _total") }
            if family.type == "gauge", ["_count", "_sum", "_bucket"].contains(where: { name.hasSuffix($0) }) { found.append("\(name): reserved suffix") }
            for unit in ["_minutes", "_hours", "_days", "_milliseconds", "_ms", "_percent"] where name.contains(unit) {
                found.append("\(name): not a base unit (\(unit))")
            }
            if family.samples.count > maxSeries { found.append("\(name): \(family.samples.count) series (high cardinality)") }
            for sample in family.samples {
                for label in sample.labels.keys where identifierLabels.contains(label) || label != label.lowercased() {
                    found.append("\(name): label \(label) is an identifier or not lower case")
                }
            }
        }
        return found
    }
}

/// A broken rule of the exposition format.
struct Violation: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
