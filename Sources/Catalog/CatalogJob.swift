import Foundation
import JobKit
import Postgres

/// The `catalog` job: brings the product catalogue (`plan`, `store_product_mapping`) to what a catalogue file
/// (`CatalogFile`) says, in one transaction: new plans and store products are added, a renamed plan is renamed, and
/// nothing else changes. A plan's billing period and the plan a store product is mapped to never change once
/// recorded (the history's charges are priced by them): a file that says otherwise is refused, naming the line,
/// and nothing is written. Store products in the database but not in the file are kept and counted
/// (`mappings_not_in_file`): their purchases still need them. One `audit_log` row records each run that changed
/// something, with the file's SHA-256. `--dry-run` runs the same statements and rolls them back.
///
/// The catalogue is reference data: the job role `iap_job` may only read it, so this job runs as the owner role, as
/// `migrate` does (docs/RUNBOOK.md, "Install").
public enum CatalogJob {
    /// The job's own options.
    public static let options: [JobOption] = [
        .value("file", placeholder: "path", help: "the catalogue file (tab-separated; deploy/catalog.example.tsv shows the columns)"),
    ]

    /// The job definition used by `Jobs/catalog`.
    public static func definition() -> JobDefinition {
        JobDefinition(name: "catalog", summary: "add the plans and store products of a catalogue file (one transaction, audited)",
                      options: options) { context in
            guard let path = context.arguments.values["file"] else {
                throw JobError.usage("--file is required: the catalogue file to apply")
            }
            let file: CatalogFile
            do {
                file = try CatalogFile.read(path)
            } catch let refusal as CatalogFile.Refusal {
                throw JobError.usage(refusal.description)
            }
            let counts: [(String, Int)]
            do {
                counts = try apply(file, context: context)
            } catch let error as PostgresError where error.sqlState == "42501" {
                throw JobError.configuration("the catalogue is reference data the job role may only read; run catalog as the "
                                             + "owner role (PGUSER=iap_owner), as migrate is: \(error.message)")
            }
            for (name, value) in counts { context.setCount(name, value) }
            if context.dryRun { context.note("dry_run_note", "counts are what a run would change; nothing was written") }
        }
    }

    /// Applies `file` in one transaction (rolled back under `--dry-run`) and returns the counts.
    static func apply(_ file: CatalogFile, context: JobContext) throws -> [(String, Int)] {
        var counts: [String: Int] = ["plans_added": 0, "plans_renamed": 0, "plans_unchanged": 0,
                                     "mappings_added": 0, "mappings_unchanged": 0, "mappings_not_in_file": 0]
        try context.transactionRolledBackOnDryRun { db in
            _ = try db.execute("LOCK TABLE plan, store_product_mapping IN SHARE ROW EXCLUSIVE MODE")
            var planIds: [String: String] = [:]
            for plan in file.plans {
                let (id, outcome) = try applyPlan(plan, file: file, db)
                planIds[plan.code] = id
                counts[outcome, default: 0] += 1
            }
            for mapping in file.mappings {
                counts[try applyMapping(mapping, planId: planIds[mapping.planCode] ?? "", file: file, db), default: 0] += 1
            }
            let keys = Set(file.mappings.map(\.externalKey))
            let others = try db.query("""
                SELECT provider::text || ':' || product_id || ':' || base_plan_id || ':' || offer_id AS key
                FROM store_product_mapping ORDER BY 1
                """).rows.map { try $0.decode(String.self, "key") }.filter { !keys.contains($0) }
            counts["mappings_not_in_file"] = others.count
            if !others.isEmpty {
                context.logger.info("store products in the database but not in the file are kept",
                                    ["count": String(others.count), "first": others.prefix(5).joined(separator: ", ")])
            }
            let changed = counts["plans_added", default: 0] + counts["plans_renamed", default: 0] + counts["mappings_added", default: 0]
            if changed > 0 {
                var detail: [String: Any] = counts.mapValues { $0 as Any }
                detail["file"] = file.path
                detail["job_run_id"] = context.runID.map { $0 as Any } ?? NSNull()
                let json = try JSONSerialization.data(withJSONObject: detail, options: [.sortedKeys])
                _ = try db.execute("""
                    INSERT INTO audit_log (actor, action, entity, entity_id, detail)
                    VALUES ('catalog', 'apply', 'store_product_mapping', $1,
                            $2::jsonb || jsonb_build_object('sha256', encode(sha256($3::bytea), 'hex')))
                    """, [file.path, String(decoding: json, as: UTF8.self), file.bytes])
            }
        }
        return counts.sorted { $0.key < $1.key }
    }

    /// Adds, renames or keeps one plan; returns its id and the count it adds to. Refuses a changed period.
    private static func applyPlan(_ plan: CatalogFile.Plan, file: CatalogFile, _ db: PostgresConnection) throws -> (String, String) {
        if let row = try db.query("SELECT id::text AS id, name, billing_period FROM plan WHERE code = $1", [plan.code]).first {
            let id = try row.decode(String.self, "id")
            let period = try row.decode(String.self, "billing_period")
            guard period == plan.billingPeriod else {
                throw JobError.usage("\(file.path):\(plan.line) column billing_period: plan \(plan.code) is \(period) in the database, "
                                     + "\(plan.billingPeriod) here; a plan's period never changes (its charges are priced by it): "
                                     + "give the new period a new plan code")
            }
            guard try row.decode(String.self, "name") != plan.name else { return (id, "plans_unchanged") }
            _ = try db.execute("UPDATE plan SET name = $2, updated_at = now() WHERE id = $1::uuid", [id, plan.name])
            return (id, "plans_renamed")
        }
        let unit = plan.billingPeriod.hasSuffix("Y") ? "YEARLY" : "MONTHLY"
        let row = try db.query("""
            INSERT INTO plan (code, name, interval_unit, billing_period) VALUES ($1, $2, $3::interval_unit, $4) RETURNING id::text AS id
            """, [plan.code, plan.name, unit, plan.billingPeriod]).first
        return (try row?.decode(String.self, "id") ?? "", "plans_added")
    }

    /// Adds or keeps one store product; refuses one the database maps to another plan.
    private static func applyMapping(_ mapping: CatalogFile.Mapping, planId: String, file: CatalogFile, _ db: PostgresConnection) throws -> String {
        if let row = try db.query("""
            SELECT p.code FROM store_product_mapping m JOIN plan p ON p.id = m.plan_id
            WHERE m.provider = $1::billing_provider AND m.product_id = $2 AND m.base_plan_id = $3 AND m.offer_id = $4
            """, [mapping.provider, mapping.productId, mapping.basePlanId, mapping.offerId]).first {
            let code = try row.decode(String.self, "code")
            guard code == mapping.planCode else {
                throw JobError.usage("\(file.path):\(mapping.line) column plan_code: \(mapping.externalKey) is plan \(code) in the "
                                     + "database, \(mapping.planCode) here; a store product never changes plan (its purchases "
                                     + "were sold as it)")
            }
            return "mappings_unchanged"
        }
        _ = try db.execute("""
            INSERT INTO store_product_mapping (provider, plan_id, product_id, base_plan_id, offer_id, external_key)
            VALUES ($1::billing_provider, $2::uuid, $3, $4, $5, $6)
            """, [mapping.provider, planId, mapping.productId, mapping.basePlanId, mapping.offerId, mapping.externalKey])
        return "mappings_added"
    }
}
