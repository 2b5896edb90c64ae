import Foundation
import Monitoring
import Testing

/// The writer's escaping and number forms, read back by the independent parser; and the parser rejecting
/// expositions that break the format or the naming conventions (so its acceptance of the job's output means something).
@Suite struct ExpositionFormatTests {
    @Test func escapedLabelsAndSpecialValuesRoundTrip() throws {
        let family = MetricFamily(name: "iap_example_seconds", help: "a \\ back\nslash", samples: [
            MetricSample([("job", "a\"b\\c\nd")], .infinity),
            MetricSample([("job", "plain")], 0.25),
            MetricSample([("job", "whole")], 42),
        ])
        let text = PrometheusText.render([family])
        #expect(text.contains("iap_example_seconds{job=\"a\\\"b\\\\c\\nd\"} +Inf"))
        #expect(text.contains("# HELP iap_example_seconds a \\\\ back\\nslash"))
        let parsed = try PrometheusExposition(text)
        #expect(parsed.value("iap_example_seconds", ["job": "a\"b\\c\nd"]) == .infinity)
        #expect(parsed.value("iap_example_seconds", ["job": "plain"]) == 0.25)
        #expect(parsed.value("iap_example_seconds", ["job": "whole"]) == 42)
        #expect(parsed.families["iap_example_seconds"]?.help == "a \\ back\nslash")
    }

    @Test(arguments: [
        "iap_x 1",                                               // no trailing line feed
        "# TYPE iap_x gauge\niap_x{job=\"a} 1\n",               // unterminated label value
        "# TYPE iap_x gauge\niap_x one\n",                       // not a number
        "# TYPE iap_x gauge\niap_x 1\niap_x 2\n",                // duplicate series
        "# TYPE iap_x gauge\niap_x 1\n# TYPE iap_y gauge\niap_y 1\niap_x{a=\"b\"} 1\n", // family not contiguous
        "iap_x 1\n# TYPE iap_x gauge\n",                         // TYPE after samples
        "# TYPE iap_x thing\n",                                  // unknown type
        "# TYPE 1x gauge\n",                                     // bad metric name
        "# TYPE iap_x gauge\niap_x{__a=\"b\"} 1\n",             // reserved label name
        "# TYPE iap_x gauge\niap_x{a=\"\\q\"} 1\n",             // bad escape
    ])
    func theParserRejectsBrokenExpositions(_ text: String) {
        #expect(throws: Violation.self) { try PrometheusExposition(text) }
    }

    @Test func theConventionCheckNamesEachBrokenRule() throws {
        let text = """
            # HELP x_y no namespace
            # TYPE x_y gauge
            x_y 1
            # HELP iap_calls counter without total
            # TYPE iap_calls counter
            iap_calls 1
            # HELP iap_latency_milliseconds wrong unit
            # TYPE iap_latency_milliseconds gauge
            iap_latency_milliseconds{subscription_id="s1"} 1
            # TYPE iap_nohelp gauge
            iap_nohelp 1

            """
        let violations = try PrometheusExposition(text).conventionViolations()
        #expect(violations == [
            "x_y: not in the iap_ namespace",
            "iap_calls: a counter must end in _total",
            "iap_latency_milliseconds: not a base unit (_milliseconds)",
            "iap_latency_milliseconds: label subscription_id is an identifier or not lower case",
            "iap_nohelp: no HELP",
        ])
    }
}
