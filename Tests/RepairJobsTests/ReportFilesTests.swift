import Foundation
import Testing

/// What several report files need is defined once in the schema (migration 0021), and the files call it: no file
/// carries its own copy of the parameters or of the contribution and movement blocks.
@Suite struct ReportFilesTests {
    static let files = ["mrr", "mrr_movements", "mrr_bridge", "fx_missing", "refunds", "entitlement_leakage",
                        "grace_hold_recovery", "price_change_churn", "reconciliation", "subscribers", "kpis", "trial_conversion", "plan_change_mix", "cohorts"]

    @Test func everyReportReadsTheSharedParametersAndNoPastedCopy() throws {
        for file in Self.files {
            let text = try ReportSQL.text(file)
            #expect(text.components(separatedBy: "report_params($1, $2, $3, $4, $5)").count == 2, "\(file) calls report_params once")
            #expect(!text.contains("$5::text IN"), "\(file) validates the basis itself (a pasted copy)")
        }
    }

    /// The shared relations are read through the functions that use build-reports' once-filled tables; a direct call
    /// of a defining function would still run, but compute the rows again in that file.
    @Test func theSharedRelationsAreReadThroughTheRunFunctions() throws {
        for file in Self.files {
            let text = try ReportSQL.text(file)
            for function in ["report_snapshot(", "report_contribution(", "report_movement(", "report_subscriber_state("] {
                #expect(!text.contains(" " + function) && !text.contains("." + function), "\(file) calls \(function) directly")
            }
        }
        for file in ["mrr", "mrr_movements", "mrr_bridge", "fx_missing"] {
            #expect(try ReportSQL.text(file).contains("report_run_contribution($1, $2, $3, $5)"), "\(file)")
        }
        for file in ["mrr_movements", "mrr_bridge"] {
            #expect(try ReportSQL.text(file).contains("report_run_movement($1, $2, $3, $5)"), "\(file)")
        }
    }
}
