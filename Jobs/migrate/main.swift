import JobKit
import Postgres

/// `migrate`: applies pending SQL migrations in order; `--status` lists each file's state.
let definition = JobDefinition(
    name: "migrate",
    summary: "apply the pending SQL migrations in order, each in its own transaction",
    options: [.flag("status", help: "list each migration as applied, pending or changed, and apply nothing")]
) { context in
    let migrator = try Migrator(database: context.database)
    if context.arguments.flags.contains("status") {
        for status in try migrator.status() {
            let when = status.appliedAt.map { " (applied \(PostgresTimestamp.iso8601($0)))" } ?? ""
            context.logger.info("\(status.name): \(status.state.rawValue)\(when)")
            context.count(status.state.rawValue)
        }
        return
    }
    let applied = try migrator.migrate(dryRun: context.dryRun)
    for name in applied { context.logger.info(context.dryRun ? "would apply \(name)" : "applied \(name)") }
    context.setCount(context.dryRun ? "would_apply" : "applied", applied.count)
}
JobRunner.main(definition)
