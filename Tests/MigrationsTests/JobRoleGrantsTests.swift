import Foundation
import JobKit
import Migrations
import Postgres
import TestSupport
import Testing

/// The job role's table privileges (`SQL/job_role_grants.sql`, applied by `migrate`): every table of the schema is
/// listed, the database holds exactly the listed privileges, the finance trail is append-only for `iap_job`, and an
/// installation set up with the old blanket grants is brought to the list by roles.sql and its next `migrate`.
@Suite(.serialized) struct JobRoleGrantsTests {
    static let grantsFile = RoleDatabase.rolesSQL.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SQL/job_role_grants.sql")

    /// The list as the file states it: table → privileges, a column-limited one as `UPDATE(a,b)`.
    static func listed() throws -> [String: Set<String>] {
        let text = try String(contentsOf: grantsFile, encoding: .utf8)
        let entry = try Regex(#"\('([a-z0-9_]+)', '([A-Z ,()a-z_]+)'\)"#)
        var list: [String: Set<String>] = [:]
        for match in text.matches(of: entry) {
            let table = String(match.output[1].substring ?? "")
            #expect(list[table] == nil, "\(table) is listed twice")
            var privileges: Set<String> = []
            var rest = Substring(match.output[2].substring ?? "")
            while !rest.isEmpty {
                let name = rest.prefix { $0.isLetter }
                rest = rest.dropFirst(name.count).drop { $0 == " " }
                if rest.first == "(" {
                    let columns = rest.dropFirst().prefix { $0 != ")" }
                    rest = rest.dropFirst(columns.count + 2)
                    let sorted = columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.sorted()
                    privileges.insert("\(name)(\(sorted.joined(separator: ",")))")
                } else {
                    privileges.insert(String(name))
                }
                rest = rest.drop { $0 == "," || $0 == " " }
            }
            list[table] = privileges
        }
        return list
    }

    /// What `iap_job` holds on each table of the schema, in the list's notation (column privileges not implied by a
    /// table privilege as `UPDATE(a,b)`); tables it holds nothing on map to an empty set.
    static func held(_ db: PostgresConnection) throws -> [String: Set<String>] {
        var held: [String: Set<String>] = [:]
        for row in try db.query("""
            SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm')
            """).rows {
            held[try row.decode(String.self, "name")] = []
        }
        for row in try db.query("""
            SELECT table_name AS name, privilege_type AS privilege FROM information_schema.role_table_grants
            WHERE grantee = 'iap_job' AND table_schema = 'public'
            """).rows {
            held[try row.decode(String.self, "name"), default: []].insert(try row.decode(String.self, "privilege"))
        }
        for row in try db.query("""
            SELECT table_name AS name, privilege_type AS privilege, string_agg(column_name, ',' ORDER BY column_name) AS columns
            FROM information_schema.column_privileges p
            WHERE grantee = 'iap_job' AND table_schema = 'public'
              AND NOT EXISTS (SELECT 1 FROM information_schema.role_table_grants t
                              WHERE t.grantee = 'iap_job' AND t.table_schema = 'public' AND t.table_name = p.table_name
                                AND t.privilege_type = p.privilege_type)
            GROUP BY table_name, privilege_type
            """).rows {
            let privilege = try row.decode(String.self, "privilege"), columns = try row.decode(String.self, "columns")
            held[try row.decode(String.self, "name"), default: []].insert("\(privilege)(\(columns))")
        }
        return held
    }

    @Test func everyTableIsListedAndTheDatabaseHoldsExactlyTheList() throws {
        let database = try RoleDatabase.fresh("job_role_grants")
        let db = try PostgresConnection(configuration: database.superuser)
        defer { db.close() }
        let listed = try Self.listed()
        let held = try Self.held(db)
        #expect(listed.count >= 39, "the list was read (\(listed.count) entries)")
        #expect(Set(held.keys).subtracting(listed.keys).sorted() == [], "tables of the schema missing from job_role_grants.sql")
        #expect(Set(listed.keys).subtracting(held.keys).sorted() == [], "entries naming no table of the schema")
        for (table, privileges) in listed.sorted(by: { $0.key < $1.key }) {
            #expect(held[table] == privileges, "\(table): held \(held[table]?.sorted() ?? []), listed \(privileges.sorted())")
        }
        #expect(held.values.allSatisfy { !$0.contains("TRUNCATE") && !$0.contains("TRIGGER") && !$0.contains("REFERENCES") })
    }

    @Test func theFinanceTrailIsAppendOnlyForTheJobRole() throws {
        let database = try RoleDatabase.fresh("job_role_trail")
        let admin = try PostgresConnection(configuration: database.superuser)
        defer { admin.close() }
        _ = try admin.execute("INSERT INTO period_close (period, closed_at, closed_by) VALUES ('2026-01', now(), 'test')")
        _ = try admin.execute("""
            INSERT INTO audit_log (actor, action, entity, entity_id, detail) VALUES ('test', 'probe', 'probe', '1', '{}')
            """)
        let job = try PostgresConnection(configuration: database.jobConfiguration)
        defer { job.close() }

        /// Runs `sql` as iap_job, expecting insufficient_privilege.
        func refused(_ sql: String, sourceLocation: SourceLocation = #_sourceLocation) {
            do {
                try job.execute(sql)
                Issue.record("iap_job was allowed: \(sql)", sourceLocation: sourceLocation)
            } catch let error as PostgresError {
                #expect(error.sqlState == "42501", "\(sql): \(error)", sourceLocation: sourceLocation)
            } catch {
                Issue.record("\(sql): \(error)", sourceLocation: sourceLocation)
            }
        }
        refused("UPDATE audit_log SET actor = 'someone else'")
        refused("DELETE FROM audit_log")
        refused("DELETE FROM reconciliation_item")
        refused("UPDATE reconciliation_item SET category = category")
        refused("DELETE FROM period_snapshot")
        refused("DELETE FROM period_lock")
        refused("DELETE FROM period_close")
        refused("UPDATE period_close SET closed_at = now()")
        refused("UPDATE reconciliation_run SET item_count = 0")
        refused("DELETE FROM report_file")
        refused("UPDATE report_file SET content_sha256 = 'x'")
        refused("INSERT INTO schema_migration (version, name, checksum) VALUES (9999, 'x', 'x')")
        refused("DELETE FROM schema_migration")
        refused("UPDATE plan SET name = 'x'")
        refused("UPDATE store_product_mapping SET product_id = 'x'")
        refused("DELETE FROM job_run")
        refused("TRUNCATE billing_transaction")
        refused("DELETE FROM entitlement_interval")

        // What the role is for still works: appending to the trail, reopening a close (two columns), reading.
        #expect(try job.execute("""
            INSERT INTO audit_log (actor, action, entity, entity_id, detail) VALUES ('job', 'probe', 'probe', '2', '{}')
            """) == 1)
        #expect(try job.execute("UPDATE period_close SET reopened_at = now(), reopen_reason = 'test' WHERE period = '2026-01'") == 1)
        #expect(try job.query("SELECT count(*) AS n FROM audit_log").first?.decode(Int.self, "n") == 2)
    }

    /// build-reports' replacement of a basis's stored spans (migration 0039) and import-exports' statistics of the
    /// staged Google earnings facts (0045) are the only things the job role does with the owner's rights, besides the
    /// triggers that log the history's changes for build-reports (0053), which fire whoever writes: the schema's
    /// SECURITY DEFINER functions are exactly those five, PUBLIC may not run them, iap_job may run the first three (for
    /// the two bases only), and the job role still cannot empty a partition or drop its index itself, nor write the log.
    @Test func onlyTheOwnersThreeFunctionsRunWithItsRights() throws {
        let database = try RoleDatabase.fresh("job_role_definer")
        let admin = try PostgresConnection(configuration: database.superuser)
        defer { admin.close() }
        let definers = try admin.query("""
            SELECT p.proname AS name, EXISTS (SELECT FROM aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                                              WHERE a.grantee = 0) AS public
            FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace AND p.prosecdef ORDER BY 1
            """).rows.map { (try $0.decode(String.self, "name"), try $0.decode(Bool.self, "public")) }
        #expect(definers.map(\.0) == ["google_earnings_fact_analyze", "report_history_change_rows", "report_history_change_subscription",
                                      "report_stored_span_empty", "report_stored_span_index"])
        #expect(definers.allSatisfy { !$0.1 }, "PUBLIC may execute \(definers.filter(\.1).map(\.0))")
        _ = try admin.execute("""
            INSERT INTO report_stored_span_input (basis, subscription_id, row_count, hash_sum)
            VALUES ('corrected', gen_random_uuid(), 1, 1), ('known', gen_random_uuid(), 1, 1)
            """)

        let job = try PostgresConnection(configuration: database.jobConfiguration)
        defer { job.close() }
        for sql in ["TRUNCATE report_stored_span_corrected", "DROP INDEX report_stored_span_corrected_subscription",
                    "INSERT INTO report_history_change (subscription_id) VALUES (NULL)"] {
            do {
                try job.execute(sql)
                Issue.record("iap_job was allowed: \(sql)")
            } catch let error as PostgresError {
                #expect(error.sqlState == "42501", "\(sql): \(error)")
            }
        }
        do {
            try job.execute("SELECT report_stored_span_empty('report_stored_span')")
            Issue.record("an unknown basis was accepted")
        } catch let error as PostgresError {
            #expect("\(error)".contains("unknown basis"), "\(error)")
        }
        try job.transaction { db in
            _ = try db.execute("SELECT report_stored_span_empty('corrected')")
            _ = try db.execute("SELECT report_stored_span_index('corrected')")
        }
        let left = try admin.query("SELECT basis FROM report_stored_span_input ORDER BY 1").rows.map { try $0.decode(String.self, "basis") }
        #expect(left == ["known"], "only the named basis is emptied")
        let indexes = try admin.query("""
            SELECT indexname AS name FROM pg_indexes WHERE tablename = 'report_stored_span_corrected'
            """).rows.map { try $0.decode(String.self, "name") }
        #expect(indexes == ["report_stored_span_corrected_subscription"], "the index is built again")
    }

    /// Only the owner may ANALYZE a table (PostgreSQL skips it, with a warning, for anyone else): the job role analyses
    /// the staged Google earnings facts through the owner's function (migration 0045), which import-exports calls.
    @Test func theJobRoleAnalysesTheStagedFactsThroughTheOwnersFunction() throws {
        let database = try RoleDatabase.fresh("job_role_facts_statistics")
        let admin = try PostgresConnection(configuration: database.superuser)
        defer { admin.close() }
        let analysed = "SELECT last_analyze IS NOT NULL AS done FROM pg_stat_user_tables WHERE relname = 'google_earnings_fact'"
        let job = try PostgresConnection(configuration: database.jobConfiguration)
        defer { job.close() }
        try job.execute("ANALYZE google_earnings_fact")
        #expect(try admin.query(analysed).first?.decode(Bool.self, "done") == false, "iap_job's own ANALYZE is skipped")
        _ = try job.query("SELECT google_earnings_fact_analyze()")
        #expect(try admin.query(analysed).first?.decode(Bool.self, "done") == true)
    }

    @Test func anInstallationWithTheOldBlanketGrantsIsBroughtToTheList() throws {
        let database = try RoleDatabase.fresh("job_role_upgrade", migrate: false)
        let admin = try PostgresConnection(configuration: database.superuser)
        defer { admin.close() }
        // As the earlier roles.sql left it: every DML privilege on every table, now and by default.
        try admin.executeScript("""
            ALTER DEFAULT PRIVILEGES FOR ROLE iap_owner IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO iap_job;
            """)
        let owner = try PostgresConnection(configuration: database.ownerConfiguration)
        defer { owner.close() }
        try Migrator(database: owner, files: try Migrator.shippedFiles()).migrate()
        #expect(try Self.held(admin)["audit_log"] == ["SELECT", "INSERT", "UPDATE", "DELETE"], "the old default applied")

        // The upgrade: roles.sql again, then `migrate` (nothing pending; the grants are applied all the same).
        try RoleDatabase.applyRoles(on: admin)
        #expect(try Migrator(database: owner).migrate() == [])
        let held = try Self.held(admin)
        #expect(held["audit_log"] == ["SELECT", "INSERT"])
        #expect(held == (try Self.listed()).merging(held.filter { $0.value.isEmpty }) { listed, _ in listed })
        let defaults = try admin.query("""
            SELECT count(*) AS n FROM pg_default_acl d, aclexplode(d.defaclacl) a
            WHERE d.defaclobjtype = 'r' AND a.grantee = 'iap_job'::regrole
            """).first?.decode(Int.self, "n")
        #expect(defaults == 0, "no table privilege by default any more")
    }
}
