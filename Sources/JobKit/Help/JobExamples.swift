/// One invocation of a job shown at the end of its `--help`, with what it does.
public struct JobExample: Sendable {
    public let command: String
    public let explanation: String
}

/// The example of every job, by job name: the invocation an operator reaches for first.
public enum JobExamples {
    /// The example shown in `name`'s help; nil for a job without one (tests' own definitions).
    public static func example(for name: String) -> JobExample? { all[name] }

    static let all: [String: JobExample] = [
        "migrate": JobExample(command: "migrate --status",
                              explanation: "lists every migration file and whether it is applied; without --status applies the pending ones"),
        "nightly": JobExample(command: "nightly",
                              explanation: "runs the whole chain now, one status line per step and a summary table"),
        "replay-events": JobExample(command: "replay-events --max-attempts 5",
                                    explanation: "projects stored webhooks that failed; after 5 failures an event goes to dead_letter"),
        "recover-notifications": JobExample(command: "recover-notifications --since 2026-06-12T00:00:00Z",
                                            explanation: "a new installation's backfill: 170 days of Apple notification history"),
        "sweep-voided": JobExample(command: "sweep-voided --since 2026-11-01",
                                   explanation: "applies Google refunds and chargebacks voided since November 1st"),
        "ack-rescue": JobExample(command: "ack-rescue --dry-run",
                                 explanation: "lists the Google purchases it would acknowledge, nearest the 3-day deadline first"),
        "requery-at-risk": JobExample(command: "requery-at-risk --subscription 2000000123456789 --dry-run",
                                      explanation: "asks the store about one subscription and prints what would change"),
        "expire-lapsed": JobExample(command: "expire-lapsed --dry-run",
                                    explanation: "counts the subscriptions whose paid period ended without renewal"),
        "import-exports": JobExample(command: "import-exports --reports-dir /var/lib/iap/store-reports",
                                     explanation: "stages every store report file under that folder; a file already staged is unchanged"),
        "reconcile": JobExample(command: "reconcile --provider google --period 2026-11",
                                explanation: "compares November's staged Google earnings with the transaction history"),
        "build-reports": JobExample(command: "build-reports --period 2026-11 --format csv,xlsx",
                                    explanation: "writes November's reports as CSV files and one workbook under REPORT_OUT_DIR"),
        "close-period": JobExample(command: "close-period --period 2026-11",
                                   explanation: "reconciles, snapshots the reports and locks November's rows"),
        "drift-counts": JobExample(command: "drift-counts --textfile-dir /var/lib/prometheus/node-exporter --json /tmp/drift.json",
                                   explanation: "writes the counts for node_exporter (mode 0644) and as JSON"),
        "retention": JobExample(command: "retention --dry-run",
                                explanation: "prints exactly what a run now would delete and redact, writing nothing"),
        "check-notifications": JobExample(command: "check-notifications --timeout 120",
                                          explanation: "sends Apple a test notification and waits up to 2 minutes for its row"),
        "catalog": JobExample(command: "catalog --file /etc/iap/catalog.tsv --dry-run",
                              explanation: "prints which plans and store products the file would add (as PGUSER=iap_owner)"),
        "explain": JobExample(command: "explain --json 2000000123456789",
                              explanation: "one subscription's story for support, as one JSON document for jq"),
        "show-order": JobExample(command: "show-order GPA.1234-5678-9012-34567",
                                 explanation: "the order's rows in every staged earnings file, as the store wrote them, as CSV"),
    ]
}
