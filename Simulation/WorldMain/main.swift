import Foundation
import JobKit
import StoreTruth
import WorldGen

/// `world`: generates a deterministic simulated world into a truth folder and the database.
let definition = JobDefinition(
    name: "world",
    summary: "generate a deterministic simulated world: store truth folder, database (COPY) and manifest.json",
    options: [
        .value("seed", placeholder: "n", help: "PRNG seed (default 1)"),
        .value("subscriptions", placeholder: "n", help: "number of subscriptions (default 10000)"),
        .value("months", placeholder: "n", help: "months of history, 1…36 (default 12)"),
        .value("out", placeholder: "folder", help: "truth folder to write (required)"),
        .value("faults", placeholder: "kind=share,…", help: "injected fault shares, e.g. all=0.01 or missed_notification=0.02"),
        .value("apple-share", placeholder: "0…1", help: "share of Apple subscriptions (default 0.55)"),
        .value("test-share", placeholder: "0…1", help: "share of test purchases (default 0.01)"),
        .value("batch", placeholder: "n", help: "subscriptions per COPY batch (default 25000)"),
        .flag("recall", help: "do not generate: print the repair recall of the world in --out against the database"),
    ],
    run: { context in
        let values = context.arguments.values
        func number<T: LosslessStringConvertible>(_ name: String, _ fallback: T) throws -> T {
            guard let text = values[name] else { return fallback }
            guard let value = T(text) else { throw JobError.usage("--\(name) \(text) is not a valid number") }
            return value
        }
        guard let out = values["out"] else { throw JobError.usage("--out <folder> is required") }
        if context.arguments.flags.contains("recall") {
            let folder = URL(fileURLWithPath: out)
            let manifest = try JSONDecoder().decode(WorldManifest.self, from: Data(contentsOf: folder.appendingPathComponent("manifest.json")))
            let truth = try StoreTruthFolder.read(from: folder)
            for line in try ManifestRecall.report(manifest.faults, truth: truth, database: context.database, asOf: context.asOf) {
                print(line)
            }
            return
        }
        var options = WorldOptions(seed: try number("seed", UInt64(1)), subscriptions: try number("subscriptions", 10_000),
                                   months: try number("months", 12), asOf: context.asOf)
        options.appleShare = try number("apple-share", options.appleShare)
        options.testShare = try number("test-share", options.testShare)
        do {
            options.faultShares = try values["faults"].map(WorldOptions.parseFaults) ?? [:]
        } catch {
            throw JobError.usage("\(error)")
        }
        if context.dryRun {
            context.note("would_generate", "\(options.subscriptions) subscriptions × \(options.months) months into \(out)")
            return
        }
        let existing = try context.database.query("SELECT count(*)::int AS n FROM subscription").first?.decode(Int.self, "n") ?? 0
        guard existing == 0 else { throw JobError.usage("the database already holds \(existing) subscriptions; load worlds into an empty schema") }
        var lastDone = 0
        let progress = context.progress("subscriptions", total: options.subscriptions)
        let manifest = try WorldWriter.generateAndLoad(options, to: URL(fileURLWithPath: out), database: context.database,
                                                       batchSize: try number("batch", 25_000)) { done in
            progress.advance(by: done - lastDone)
            lastDone = done
        }
        for (name, value) in manifest.counts { context.setCount(name, value) }
        context.setCount("faults", manifest.faults.count)
    })

JobRunner.main(definition)
