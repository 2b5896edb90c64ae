import Catalog
import Foundation
import JobKit
import Postgres
import TestSupport
import Testing

/// The `catalog` job on a database set up as an installation is (roles.sql, migrations as the owner): the example
/// file adds its plans and store products once, a second run changes nothing, a rename renames, a file that would
/// change a plan's period or a store product's plan is refused naming the line and writes nothing, `--dry-run`
/// writes nothing, and the job role is told to run it as the owner.
@Suite(.serialized) struct CatalogJobTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let example = root.appendingPathComponent("deploy/catalog.example.tsv").path
    static let header = CatalogFile.columns.joined(separator: "\t")

    /// A job's exit code, its summary's counts and its error text.
    static func run(_ database: RoleDatabase, as role: String, _ arguments: [String]) throws -> (JobExitCode, [String: Int], String) {
        let lines = Collected()
        let code = JobRunner.run(CatalogJob.definition(), arguments: arguments + ["--log-format", "json"],
                                 environment: JobEnvironment(database.environment(as: role)), output: { lines.append($0) })
        let last = try #require(lines.last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        return (code, summary["counts"] as? [String: Int] ?? [:], summary["error"] as? String ?? "")
    }

    static func file(_ lines: [String]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString).tsv")
        try ([header] + lines).joined(separator: "\n").appending("\n").write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func catalogue(_ db: PostgresConnection) throws -> [String] {
        try db.query("""
            SELECT m.provider::text || ' ' || m.product_id || ' ' || m.base_plan_id || ' ' || m.offer_id || ' -> ' || p.code || ' '
                   || p.name || ' ' || p.billing_period || ' ' || p.interval_unit::text AS line
            FROM store_product_mapping m JOIN plan p ON p.id = m.plan_id ORDER BY 1
            """).rows.map { try $0.decode(String.self, "line") }
    }

    @Test func theExampleAddsOnceThenChangesNothingAndARenameIsAudited() throws {
        let database = try RoleDatabase.fresh("catalog_apply")
        let db = try PostgresConnection(configuration: database.superuser)
        defer { db.close() }
        var (code, counts, error) = try Self.run(database, as: RoleDatabase.owner, ["--file", Self.example])
        #expect(code == .succeeded, "\(error)")
        #expect(counts["plans_added"] == 2 && counts["mappings_added"] == 5, "\(counts)")
        #expect(try Self.catalogue(db) == [
            "APPLE com.example.app.pro.monthly   -> pro_monthly Pro monthly P1M MONTHLY",
            "APPLE com.example.app.pro.yearly   -> pro_yearly Pro yearly P1Y YEARLY",
            "GOOGLE pro monthly  -> pro_monthly Pro monthly P1M MONTHLY",
            "GOOGLE pro monthly free-trial-7d -> pro_monthly Pro monthly P1M MONTHLY",
            "GOOGLE pro yearly  -> pro_yearly Pro yearly P1Y YEARLY",
        ])
        #expect(try db.query("SELECT external_key FROM store_product_mapping WHERE offer_id <> ''").first?
            .decode(String.self, "external_key") == "GOOGLE:pro:monthly:free-trial-7d")

        (code, counts, error) = try Self.run(database, as: RoleDatabase.owner, ["--file", Self.example])
        #expect(code == .succeeded && counts["plans_unchanged"] == 2 && counts["mappings_unchanged"] == 5
                && counts["plans_added"] == 0 && counts["mappings_added"] == 0, "\(counts) \(error)")
        #expect(try db.query("SELECT count(*) AS n FROM audit_log WHERE actor = 'catalog'").first?.decode(Int.self, "n") == 1,
                "an unchanged run writes no audit row")

        let renamed = try Self.file(["APPLE\tcom.example.app.pro.monthly\t\t\tpro_monthly\tPro (monthly)\tP1M"])
        (code, counts, error) = try Self.run(database, as: RoleDatabase.owner, ["--file", renamed])
        #expect(code == .succeeded && counts["plans_renamed"] == 1 && counts["mappings_not_in_file"] == 4, "\(counts) \(error)")
        #expect(try db.query("SELECT name FROM plan WHERE code = 'pro_monthly'").first?.decode(String.self, "name") == "Pro (monthly)")
        let audit = try #require(try db.query("""
            SELECT detail->>'plans_renamed' AS renamed, detail->>'sha256' AS sha, detail->>'file' AS file
            FROM audit_log WHERE actor = 'catalog' ORDER BY id DESC LIMIT 1
            """).first)
        #expect(try audit.decode(String.self, "renamed") == "1" && audit.decode(String.self, "file") == renamed)
        #expect(try audit.decode(String.self, "sha").count == 64)
    }

    @Test func aFileThatWouldRewriteHistoryIsRefusedAndNothingIsWritten() throws {
        let database = try RoleDatabase.fresh("catalog_refuse")
        let db = try PostgresConnection(configuration: database.superuser)
        defer { db.close() }
        #expect(try Self.run(database, as: RoleDatabase.owner, ["--file", Self.example]).0 == .succeeded)
        let before = try Self.catalogue(db)
        let cases: [(lines: [String], message: String)] = [
            (["APPLE\tcom.example.app.new\t\t\tnew_plan\tNew\tP1M", "APPLE\tcom.example.app.pro.yearly\t\t\tpro_yearly\tPro yearly\tP1M"],
             ":3 column billing_period: plan pro_yearly is P1Y in the database, P1M here"),
            (["APPLE\tcom.example.app.new\t\t\tnew_plan\tNew\tP1M", "GOOGLE\tpro\tyearly\t\tpro_monthly\tPro monthly\tP1M"],
             ":3 column plan_code: GOOGLE:pro:yearly: is plan pro_yearly in the database, pro_monthly here"),
        ]
        for (lines, message) in cases {
            let path = try Self.file(lines)
            let (code, _, error) = try Self.run(database, as: RoleDatabase.owner, ["--file", path])
            #expect(code == .usageOrConfiguration)
            #expect(error.contains(path + message), "\(error)")
            #expect(try Self.catalogue(db) == before, "nothing written, not even the new plan of line 2")
        }
        let dry = try Self.file(["APPLE\tcom.example.app.new\t\t\tnew_plan\tNew\tP1M"])
        let (code, counts, _) = try Self.run(database, as: RoleDatabase.owner, ["--file", dry, "--dry-run"])
        #expect(code == .succeeded && counts["plans_added"] == 1 && counts["mappings_added"] == 1)
        #expect(try Self.catalogue(db) == before, "a dry run writes nothing")
    }

    @Test func theJobRoleIsToldToRunItAsTheOwner() throws {
        let database = try RoleDatabase.fresh("catalog_role")
        let (code, _, error) = try Self.run(database, as: RoleDatabase.job, ["--file", Self.example])
        #expect(code == .usageOrConfiguration)
        #expect(error.contains("run catalog as the owner role (PGUSER=iap_owner)"), "\(error)")
    }

    @Test func missingFileOptionIsAUsageError() throws {
        let database = try RoleDatabase.fresh("catalog_usage")
        let (code, _, error) = try Self.run(database, as: RoleDatabase.owner, [])
        #expect(code == .usageOrConfiguration && error.contains("--file is required"), "\(error)")
    }
}

/// Lines a job printed (its output closure may be called from its thread).
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var last: String? { lock.lock(); defer { lock.unlock() }; return lines.last }
}
