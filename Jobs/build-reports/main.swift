import JobKit
import Reporting

/// `build-reports`: the finance reports as CSV files and one XLSX workbook with charts.
JobRunner.main(BuildReports.definition())
