import Foundation
import Postgres
import Reconciliation
import TestSupport
import Testing

/// The closed-period lock against the role the jobs connect as (`iap_job`, deploy/postgres/roles.sql): after
/// `close-period` (itself run as `iap_job`), a locked row of the closed month can be neither updated nor deleted, and
/// the ways a superuser could switch the lock off — `SET session_replication_role = replica`, `ALTER TABLE … DISABLE
/// TRIGGER`, dropping the trigger or replacing its function — each fail; the row is unchanged. The role's ordinary
/// work (a late refund inserted into the closed month) still succeeds.
@Suite(.serialized) struct ClosedPeriodRoleTests {
    @Test func theLockHoldsAgainstTheJobRole() throws {
        let harness = try ReconcileHarness("close_role", seed: 6)
        try harness.importReports()
        let periods = try harness.periods(.google)
        try #require(periods.count >= 2)
        let month = periods[1]
        try harness.writeReportFile()
        let (code, _, line) = try harness.run(ClosePeriod.definition(), ["--period", month.label, "--reports", harness.out.path])
        #expect(code == .succeeded, "\(line)")

        let charge = try #require(try harness.database.query("""
            SELECT transaction_key FROM billing_transaction b
            WHERE provider = 'GOOGLE' AND amount_micros > 0 AND NOT is_test AND order_id IS NOT NULL
              AND effective_at >= to_timestamp($1) AND effective_at < to_timestamp($2) - interval '2 days'
              AND NOT EXISTS (SELECT 1 FROM billing_transaction r WHERE r.refunded_transaction_key = b.transaction_key)
            ORDER BY transaction_key LIMIT 1
            """, [month.start, month.end]).first).decode(String.self, "transaction_key")
        func rowText() throws -> String {
            try #require(try harness.database.query(
                "SELECT to_jsonb(b)::text AS row FROM billing_transaction b WHERE transaction_key = $1", [charge]).first)
                .decode(String.self, "row")
        }
        let before = try rowText()

        let job = try PostgresConnection(configuration: harness.roles.jobConfiguration)
        defer { job.close() }
        #expect(try job.query("SELECT current_user AS who, rolsuper FROM pg_roles WHERE rolname = current_user").first
            .map { "\(try $0.decode(String.self, "who")) \(try $0.decode(Bool.self, "rolsuper"))" } == "iap_job false")

        /// Runs `sql` as iap_job, expecting PostgreSQL to refuse it with `sqlState`; leaves the session usable.
        func refused(_ sql: String, _ parameters: [any PostgresEncodable] = [], sqlState: String, sourceLocation: SourceLocation = #_sourceLocation) {
            do {
                try job.execute(sql, parameters)
                Issue.record("iap_job was allowed: \(sql)", sourceLocation: sourceLocation)
            } catch let error as PostgresError {
                #expect(error.sqlState == sqlState, "\(sql): \(error)", sourceLocation: sourceLocation)
            } catch {
                Issue.record("\(sql): \(error)", sourceLocation: sourceLocation)
            }
        }
        // The trigger refuses the plain changes (check_violation).
        refused("UPDATE billing_transaction SET reason = 'x' WHERE transaction_key = $1", [charge], sqlState: "23514")
        refused("DELETE FROM billing_transaction WHERE transaction_key = $1", [charge], sqlState: "23514")
        // The refusal names the row without its purchase token (the key is shown masked, migration 0028).
        do {
            try job.execute("UPDATE billing_transaction SET reason = 'x' WHERE transaction_key = $1", [charge])
        } catch let error as PostgresError {
            let token = String(charge.split(separator: ":")[1])
            #expect(!error.message.contains(token) && !error.message.contains(charge), "\(error.message)")
            #expect(error.message.contains("(key GOOG…\(charge.suffix(4)))"), "\(error.message)")
        }
        // Switching the trigger off needs a superuser or the table's owner (insufficient_privilege / must be owner).
        refused("SET session_replication_role = replica", sqlState: "42501")
        refused("SET LOCAL session_replication_role = replica", sqlState: "42501")
        refused("ALTER TABLE billing_transaction DISABLE TRIGGER billing_transaction_closed_period_trg", sqlState: "42501")
        refused("ALTER TABLE billing_transaction DISABLE TRIGGER ALL", sqlState: "42501")
        refused("DROP TRIGGER billing_transaction_closed_period_trg ON billing_transaction", sqlState: "42501")
        refused("CREATE OR REPLACE FUNCTION billing_transaction_closed_period() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$",
                sqlState: "42501")
        // No DDL at all in the schema.
        refused("CREATE TABLE iap_job_probe (id int)", sqlState: "42501")
        // The update after each attempt is still refused, and the row is as it was.
        refused("UPDATE billing_transaction SET reason = 'x' WHERE transaction_key = $1", [charge], sqlState: "23514")
        #expect(try rowText() == before)

        // What the role is for still works: a late refund of that charge, effective in the closed month.
        #expect(try job.execute("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, order_id,
                amount_micros, currency_code, country_code, product_id, refunded_transaction_key, refund_kind, raw_payload)
            SELECT subscription_id, provider, 'REFUNDED', $2, effective_at + interval '1 day', order_id, -amount_micros,
                   currency_code, country_code, product_id, transaction_key, 'REFUND', '{}'
            FROM billing_transaction WHERE transaction_key = $1
            """, [charge, charge + ":REFUNDED"]) == 1)
    }
}
