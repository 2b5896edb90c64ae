import Foundation
import Monitoring
import Testing

/// The thresholds file format (docs/MONITORING.md): parsing, matching by label subset, breaches, and errors that name the line.
@Suite struct ThresholdTests {
    let families = [
        MetricFamily(name: "iap_drift_subscriptions", help: "h", samples: [
            MetricSample([("provider", "apple"), ("kind", "status")], 3),
            MetricSample([("provider", "google"), ("kind", "status")], 0),
        ]),
        MetricFamily(name: "iap_store_query_error_ratio_24h", help: "h", samples: [MetricSample([("provider", "google")], 0.4)]),
    ]

    @Test func rulesMatchByLabelSubsetAndNameEachBreachedSeries() throws {
        let rules = try ThresholdFile.parse("""
            # on-call thresholds
            iap_drift_subscriptions > 0

            iap_drift_subscriptions{provider="apple", kind="status"} > 5
            iap_store_query_error_ratio_24h{provider="google"} > 0.25
            iap_store_query_error_ratio_24h < 0.1
            """)
        #expect(rules.count == 4)
        #expect(rules[1].labels == [MetricLabel(name: "provider", value: "apple"), MetricLabel(name: "kind", value: "status")])
        let breaches = try ThresholdCheck.breaches(families, rules: rules)
        #expect(breaches.map(\.series) == ["iap_drift_subscriptions{provider=\"apple\",kind=\"status\"}",
                                           "iap_store_query_error_ratio_24h{provider=\"google\"}"])
        #expect(breaches.first?.description == "iap_drift_subscriptions{provider=\"apple\",kind=\"status\"} = 3 (> 0, thresholds line 2)")
    }

    @Test(arguments: ["iap_x >", "iap_x = 3", "{a=\"b\"} > 1", "iap_x{a=b} > 1", "iap_x{a=\"b\" > 1", "iap_x > inf"])
    func malformedLinesAreRejectedWithTheirLineNumber(_ line: String) {
        #expect(throws: ThresholdFile.ParseError.self) { try ThresholdFile.parse("# ok\n" + line) }
        do { _ = try ThresholdFile.parse("# ok\n" + line) } catch let error as ThresholdFile.ParseError { #expect(error.line == 2) } catch {}
    }

    @Test func aRuleForAnUnknownMetricIsAnError() throws {
        let rules = try ThresholdFile.parse("iap_drift_subscription > 0")
        #expect(throws: ThresholdCheck.UnknownMetric.self) { try ThresholdCheck.breaches(families, rules: rules) }
    }
}
