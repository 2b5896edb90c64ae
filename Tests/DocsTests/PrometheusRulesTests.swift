import Foundation
import Testing

/// deploy/prometheus: `promtool check rules` accepts the alerting rules, `promtool test rules` shows them firing on
/// drift-counts' series past a threshold (and quiet at it), and every rule of the thresholds file that drift-counts
/// reads has an alert on the same series and bound. (drift-counts' own output is checked with `promtool check
/// metrics` in MonitoringTests.)
@Suite struct PrometheusRulesTests {
    static let folder = DeployUnitsTests.deploy.appendingPathComponent("prometheus")
    static let promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs promtool with `arguments` in deploy/prometheus; returns its exit status and output.
    static func promtool(_ arguments: [String]) throws -> (Int32, String) {
        try ToolProcess.run(promtool ?? "/usr/bin/promtool", arguments, in: folder)
    }

    @Test(.enabled(if: promtool != nil, "promtool is not installed (Debian package prometheus: make deps)"))
    func promtoolAcceptsAndTestsTheRules() throws {
        let (status, output) = try Self.promtool(["check", "rules", "iap-alerts.yml"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("SUCCESS"))
        let (testStatus, testOutput) = try Self.promtool(["test", "rules", "iap-alerts.test.yml"])
        #expect(testStatus == 0, "\(testOutput)")
        // A broken rule is refused: the check is real.
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("alerts-\(UUID().uuidString).yml")
        try String(contentsOf: Self.folder.appendingPathComponent("iap-alerts.yml"), encoding: .utf8)
            .replacingOccurrences(of: "expr: iap_entitlement_leaked_subscriptions > 0", with: "expr: iap_entitlement_leaked_subscriptions >")
            .write(to: broken, atomically: true, encoding: .utf8)
        #expect(try Self.promtool(["check", "rules", broken.path]).0 != 0)
    }

    @Test func everyThresholdHasAnAlertOnTheSameSeriesAndBound() throws {
        let thresholds = try String(contentsOf: Self.folder.appendingPathComponent("iap-thresholds.conf"), encoding: .utf8)
        let rules = thresholds.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        #expect(rules.count >= 8)
        let alerts = try String(contentsOf: Self.folder.appendingPathComponent("iap-alerts.yml"), encoding: .utf8)
        let expressions = Set(alerts.split(separator: "\n").compactMap { line -> String? in
            let text = line.trimmingCharacters(in: .whitespaces)
            return text.hasPrefix("expr: ") ? String(text.dropFirst(6)) : nil
        })
        for rule in rules { #expect(expressions.contains(rule), "no alert has expr: \(rule)") }
    }
}
