import Foundation
import JobKit
import Postgres

/// The `drift-counts` job: counts what on-call watches (drift, entitlement leakage, stale PENDING purchases, Google
/// acknowledgement deadlines, unprocessed webhooks, dead letters, store error and 429 rates, job freshness, what the
/// newest run of each repair job repaired), writes
/// them in the Prometheus textfile-collector format and as JSON, and exits 3 naming each series over its threshold.
/// Read-only: it never writes the database beyond its own `job_run` row.
public enum DriftCounts {
    /// The file written into the textfile-collector folder.
    public static let textfileName = "iap_drift_counts.prom"
    /// Where the textfile goes when neither `--textfile-dir` nor `DRIFT_TEXTFILE_DIR` names a folder: Debian's
    /// `prometheus-node-exporter` reads this folder (`--collector.textfile.directory`).
    public static let defaultTextfileFolder = "/var/lib/prometheus/node-exporter"
    /// The default for `--pending-hours`.
    public static let defaultPendingHours = 24

    /// The job's own options; the folder and thresholds file fall back to `DRIFT_TEXTFILE_DIR` / `DRIFT_THRESHOLDS_FILE`.
    public static let options: [JobOption] = [
        .value("textfile-dir", placeholder: "dir", help: "write \(textfileName) here, atomically, mode 0644 (default: $DRIFT_TEXTFILE_DIR, else \(defaultTextfileFolder) if it exists)"),
        .value("thresholds", placeholder: "file", help: "threshold rules, one `metric{label=\"v\"} > n` per line (default: $DRIFT_THRESHOLDS_FILE)"),
        .value("json", placeholder: "file", help: "also write every metric as JSON to this file"),
        .value("pending-hours", placeholder: "n", help: "count PENDING subscriptions older than n hours (default \(defaultPendingHours))"),
    ]

    /// Every metric family, in the order they are written.
    public static func collect(_ input: CollectorInput) throws -> [MetricFamily] {
        try DriftCollector.collect(input) + EntitlementCollector.collect(input) + PendingCollector.collect(input)
            + AcknowledgementCollector.collect(input) + WebhookCollector.collect(input) + RevocationCollector.collect(input)
            + StoreQueryCollector.collect(input) + JobAgeCollector.collect(input) + JobRunStateCollector.collect(input) + ChainRepairCollector.collect(input)
    }

    /// The job definition used by `Jobs/drift-counts`.
    public static func definition() -> JobDefinition {
        JobDefinition(name: "drift-counts", summary: "count drift, entitlement leakage and pipeline health for monitoring; exit 3 on a breached threshold",
                      options: options) { context in
            let settings = try DriftCountsSettings(context.arguments, context.environment)
            let families = try collect(CollectorInput(database: context.database, asOf: context.asOf, pendingHours: settings.pendingHours))
            let breaches: [ThresholdBreach]
            do {
                breaches = try ThresholdCheck.breaches(families, rules: settings.rules)
            } catch {
                throw JobError.configuration("\(error)")
            }
            try write(families, breaches: breaches, settings: settings, context: context)
            for family in families where family.countsSubscriptionsOrEvents {
                context.setCount(family.name, Int(family.samples.reduce(0) { $0 + $1.value }))
            }
            context.setCount("series", families.reduce(0) { $0 + $1.samples.count })
            context.setCount("breaches", breaches.count)
            guard breaches.isEmpty else {
                for breach in breaches { context.logger.warning("threshold breached", ["series": breach.description]) }
                throw JobError.thresholdBreached(breaches.map(\.description).joined(separator: "; "))
            }
        }
    }

    private static func write(_ families: [MetricFamily], breaches: [ThresholdBreach], settings: DriftCountsSettings, context: JobContext) throws {
        let prom = PrometheusText.render(families)
        let json = MetricsJSON.render(families, breaches: breaches, asOf: context.asOf)
        if context.dryRun {
            context.logger.info("dry run: no files written", ["series": String(families.reduce(0) { $0 + $1.samples.count })])
            return
        }
        do {
            if let folder = settings.textfileFolder {
                let path = try TextfileWriter.write(prom, folder: folder, fileName: textfileName)
                context.note("textfile", path.path)
            } else if let folder = settings.missingDefaultFolder {
                context.logger.warning("no textfile written: \(folder) does not exist; set DRIFT_TEXTFILE_DIR or --textfile-dir")
                context.note("textfile", "not written: \(folder) does not exist")
            }
            if let file = settings.jsonFile {
                try TextfileWriter.write(json, folder: file.deletingLastPathComponent(), fileName: file.lastPathComponent)
                context.note("json", file.path)
            }
        } catch {
            throw JobError.failed("cannot write the metrics: \(error)")
        }
    }
}

extension MetricFamily {
    /// True for families whose values are counts (summed into the job's summary counts); ratios and ages are not.
    var countsSubscriptionsOrEvents: Bool { !name.hasSuffix("_ratio_24h") && !name.hasSuffix("_seconds") }
}
