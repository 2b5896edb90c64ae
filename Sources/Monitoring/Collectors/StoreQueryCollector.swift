import Foundation
import Postgres

/// Store API attempts over the 24 hours before the as-of instant, by provider and result, and the error and
/// rate-limit ratios.
///
/// Each `store_query` row is one HTTP attempt. `result="rate_limited"`: outcome `rate_limited` or HTTP 429;
/// `result="answered"`: outcome `ok`, or a definite answer about the item (`not_found`, `gone`);
/// `result="error"`: everything else (5xx, timeouts, unauthorized, invalid answers). The error ratio counts
/// rate-limited attempts as errors too; both ratios are 0 when there were no attempts.
enum StoreQueryCollector {
    static let results = ["answered", "error", "rate_limited"]

    static func collect(_ input: CollectorInput) throws -> [MetricFamily] {
        let attempts = try GroupedCount.samples(input.database, """
            SELECT lower(provider::text) AS provider,
                   CASE WHEN outcome = 'rate_limited' OR http_status = 429 THEN 'rate_limited'
                        WHEN outcome IN ('ok', 'not_found', 'gone') THEN 'answered'
                        ELSE 'error' END AS result,
                   count(*)::float8 AS n
            FROM store_query
            WHERE attempted_at <= $1 AND attempted_at > $1::timestamptz - interval '24 hours'
            GROUP BY 1, 2
            """, [input.asOf], labels: ["provider", "result"], expected: GroupedCount.product(GroupedCount.providers, results))
        var errorRatios: [MetricSample] = []
        var limitedRatios: [MetricSample] = []
        for provider in GroupedCount.providers {
            let mine = attempts.filter { $0.label("provider") == provider }
            let total = mine.reduce(0) { $0 + $1.value }
            let limited = mine.first { $0.label("result") == "rate_limited" }?.value ?? 0
            let errors = (mine.first { $0.label("result") == "error" }?.value ?? 0) + limited
            errorRatios.append(MetricSample([("provider", provider)], total > 0 ? errors / total : 0))
            limitedRatios.append(MetricSample([("provider", provider)], total > 0 ? limited / total : 0))
        }
        return [
            MetricFamily(name: "iap_store_query_attempts_24h",
                         help: "Store API attempts in the 24 hours before the as-of instant, by result (answered, error, rate_limited).",
                         samples: attempts),
            MetricFamily(name: "iap_store_query_error_ratio_24h",
                         help: "Share of store API attempts in the last 24 hours that failed (errors and 429s over all attempts; 0 without attempts).",
                         samples: errorRatios),
            MetricFamily(name: "iap_store_query_rate_limited_ratio_24h",
                         help: "Share of store API attempts in the last 24 hours answered with 429 / rate limited (0 without attempts).",
                         samples: limitedRatios),
        ]
    }
}
