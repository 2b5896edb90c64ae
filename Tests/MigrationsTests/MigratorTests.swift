import Foundation
import JobKit
import Migrations
import Postgres
import TestSupport
import Testing

/// `migrate` creates the schema, is a no-op the second time, and refuses an edited applied file.
@Suite(.serialized) struct MigratorTests {
    @Test func bundledFilesAreNumberedInOrder() throws {
        let files = try Migrator.shippedFiles()
        #expect(files.count >= 5)
        #expect(files.map(\.version) == Array(1...files.count))
    }

    @Test func emptyDatabaseGetsTheWholeSchemaAndASecondRunChangesNothing() throws {
        let db = try PostgresConnection(configuration: try TestDatabase.fresh("test_migrate_fresh"))
        let migrator = try Migrator(database: db)
        let applied = try migrator.migrate()
        #expect(applied.count == migrator.files.count)
        let tables = Set(try db.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").rows.map { try $0.decode(String.self, "tablename") })
        let expected: Set<String> = [
            // Always-empty placeholders that build-reports shadows with its run tables (0021).
            "report_run_filled", "report_snapshot_run", "report_contribution_run", "report_movement_run",
            // … and the subscriber states the issue-30 reports share (0026).
            "report_subscriber_state_run",
            // build-reports' stored complete months (0027).
            "report_stored_month", "report_stored_row",
            // build-reports' per-subscription spans: the run's placeholder and the store (0031).
            "report_span_run", "report_span_recomputed", "report_span_difference", "report_stored_span_set", "report_stored_span_input", "report_stored_span",
            // … partitioned by basis (0037).
            "report_stored_span_input_corrected", "report_stored_span_input_known", "report_stored_span_corrected", "report_stored_span_known",
            // … and each subscription's trial beside its spans: the run's placeholder and the store (0051).
            "report_trial_run", "report_stored_trial",
            // … and the month digest's per-snapshot parts, stored with the spans (0052).
            "report_stored_snapshot_part",
            // … and the history's changes since a store, logged by triggers (0053).
            "report_history_change",
            // … and the month history's row part, stored with the span set (0054).
            "report_stored_month_history",
            // … and grace_hold_recovery's failure episodes: the run's placeholder and the store (0055).
            "report_grace_episode_run", "report_stored_grace_episode",
            // … and refunds' paid counts' row part: the run's placeholder and the store (0056).
            "report_paid_count_run", "report_stored_paid_count",
            // … and price_change_churn's per-subscription facts: the run's placeholders and the stores (0059).
            "report_price_change_notice_run", "report_price_change_member_run", "report_price_change_peer_run",
            "report_stored_price_change_notice", "report_stored_price_change_member", "report_stored_price_change_peer",
            // … and refunds' per-refund facts: the run's placeholder and the store (0064).
            "report_refund_fact_run", "report_stored_refund_fact",
            // … and cohorts' first charges per subscription: the run's placeholder and the store (0065).
            "report_first_charge_run", "report_stored_first_charge",
            // … and plan_change_mix's plan changes per subscription: the run's placeholder and the store (0069).
            "report_plan_change_run", "report_stored_plan_change",
            // … and kpis' money rows handed over by the second session: the run's placeholder (0066).
            "report_kpi_money_run",
            // … and the cells a report stored as cells reuses, handed to its query: the run's placeholder (0060).
            "report_reused_cell_run",
            // … and a stored month's CSV lines (0062).
            "report_stored_csv",
            // … and the stored spans open after the set's instant (0063).
            "report_stored_span_open",
            // … and a night's movements at its last snapshot, per basis, for the next night (0079).
            "report_stored_movement_set", "report_stored_movement", "report_stored_movement_corrected", "report_stored_movement_known",
            // … and the run's recomputed accounts' placeholder (0080).
            "report_movement_affected",
            "app_user", "billing_account", "plan", "store_product_mapping", "subscription", "apple_subscription_identity",
            "google_purchase_token", "billing_transaction", "subscription_price_change", "entitlement",
            "inbound_webhook_event", "idempotency_key", "job_run", "store_query", "drift_event", "rate_limit_bucket",
            "dead_letter", "fx_rate", "audit_log", "schema_migration", "requery_work_item", "reconciliation_repair",
            "entitlement_interval", "subscription_price_change_transition",
            // Report staging (import-exports).
            "report_file", "apple_financial_row", "apple_payments_row", "apple_subscriber_row", "apple_sales_summary_row",
            "google_earnings_fact", "report_file_content", "google_earnings_row_before_0033", "google_estimated_sales_row", "apple_subscription_row", "apple_subscription_event_row",
            // Reconciliation and month-end close.
            "reconciliation_run", "reconciliation_item", "period_close", "period_lock", "period_snapshot",
        ]
        #expect(tables == expected)
        let enums = Set(try db.query("SELECT typname FROM pg_type WHERE typtype = 'e'").rows.map { try $0.decode(String.self, "typname") })
        #expect(enums == ["billing_provider", "subscription_status", "acknowledgement_status", "billing_event_type",
                          "price_change_state", "price_change_mode", "interval_unit", "refund_kind"])

        let before = try schemaFingerprint(db)
        #expect(try migrator.migrate().isEmpty)
        #expect(try schemaFingerprint(db) == before)
        #expect(try migrator.status().allSatisfy { $0.state == .applied })
    }

    @Test func editedAppliedMigrationIsRefusedByName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "CREATE TABLE one (id int);".write(to: folder.appendingPathComponent("0001_one.sql"), atomically: true, encoding: .utf8)
        try "CREATE TABLE two (id int);".write(to: folder.appendingPathComponent("0002_two.sql"), atomically: true, encoding: .utf8)
        let db = try PostgresConnection(configuration: try TestDatabase.fresh("test_migrate_edited"))
        #expect(try Migrator(database: db, files: MigrationFiles.load(from: folder)).migrate() == ["0001_one.sql", "0002_two.sql"])

        try "CREATE TABLE two (id bigint);".write(to: folder.appendingPathComponent("0002_two.sql"), atomically: true, encoding: .utf8)
        try "CREATE TABLE three (id int);".write(to: folder.appendingPathComponent("0003_three.sql"), atomically: true, encoding: .utf8)
        let migrator = try Migrator(database: db, files: MigrationFiles.load(from: folder))
        let error = try #require(throws: Migrator.Failure.self) { try migrator.migrate() }
        #expect(error.description.contains("0002_two.sql"))
        #expect(try db.query("SELECT to_regclass('three') IS NULL AS absent").first?.decode(Bool.self, "absent") == true,
                "nothing is applied once a changed file is found")
    }

    @Test func failingMigrationLeavesNothingHalfApplied() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "CREATE TABLE good (id int); CREATE TABLE bad (id no_such_type);".write(
            to: folder.appendingPathComponent("0001_broken.sql"), atomically: true, encoding: .utf8)
        let db = try PostgresConnection(configuration: try TestDatabase.fresh("test_migrate_broken"))
        let error = try #require(throws: Migrator.Failure.self) { try Migrator(database: db, files: MigrationFiles.load(from: folder)).migrate() }
        #expect(error.description.contains("0001_broken.sql"))
        #expect(try db.query("SELECT to_regclass('good') IS NULL AS absent").first?.decode(Bool.self, "absent") == true)
    }

    func schemaFingerprint(_ db: PostgresConnection) throws -> [String] {
        try db.query("""
            SELECT table_name || '.' || column_name || ':' || data_type || ':' || is_nullable AS c
            FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1
            """).rows.map { try $0.decode(String.self, "c") }
    }
}
