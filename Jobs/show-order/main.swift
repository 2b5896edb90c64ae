import JobKit
import ReportImport

/// `show-order <order id>`: a Google order's staged earnings rows, read back from the kept report files, as CSV
/// (read-only; for on-call and finance questions about one reconciliation item).
JobRunner.main(ShowOrder.definition())
