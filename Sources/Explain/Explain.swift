import JobKit

/// The `explain` job: one subscription's timeline for support and on-call, on a terminal or as JSON (`--json`).
/// A read-only query tool: its session is read-only, it takes no lock and writes no `job_run` row (so any number of
/// people can run it at once, it works on a read replica, and customers' identifiers never land in
/// `job_run.arguments`); its summary line goes to stderr so stdout carries only the answer.
public enum Explain {
    /// The job's own options.
    public static let options: [JobOption] = [
        .flag("json", help: "print the timeline as one JSON document instead of aligned text"),
        .flag("raw-ids", help: "show the subscription's own identifiers unmasked (other subscriptions' stay masked)"),
    ]

    /// The job definition used by `Jobs/explain`.
    public static func definition(output: @escaping @Sendable (String) -> Void = { print($0) }) -> JobDefinition {
        JobDefinition(name: "explain", summary: "print one subscription's timeline (transactions, webhooks, price changes, entitlement, drift, store queries)",
                      options: options, positional: "subscription id | originalTransactionId | purchaseToken | order id",
                      queryTool: true) { context in
            guard context.arguments.positionals.count == 1, let identifier = context.arguments.positionals.first else {
                throw JobError.usage("explain takes exactly one identifier (a subscription id, originalTransactionId, purchaseToken or order id)")
            }
            try context.database.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
            let timeline = try Timeline.build(identifier: identifier, asOf: context.asOf,
                                              rawOwnIdentifiers: context.arguments.flags.contains("raw-ids"), database: context.database)
            output(context.arguments.flags.contains("json") ? TimelineJSON.render(timeline) : TimelineText.render(timeline))
            context.setCount("entries", timeline.entries.count)
        }
    }
}
