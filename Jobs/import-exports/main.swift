import JobKit
import ReportImport

/// `import-exports`: stages the stores' report files and exchange rates (ReportImport).
JobRunner.main(ImportExports.definition())
