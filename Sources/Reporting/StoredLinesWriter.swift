import Foundation
import JobKit
import Postgres

/// Writes the stored CSV lines of the reused months of the job's files that are their CSV alone and streamed
/// (`BuildReports.writesStoredLines`: `mrr_movements` beside a workbook, 172 MB of a 1M world's night) into their staged
/// files, on a session of its own that imports the run's snapshot, while the job's session fills the movements; the job
/// then only appends the months it computes to the same writer, whose digest runs on (Reports/README.md, "The stored
/// lines written beside the movements"). A file some reused month of has no stored lines under the run's format gets
/// none here: the job writes it whole, as before.
final class StoredLinesWriter: @unchecked Sendable {
    /// One file with its header and its reused months' lines written: the writer to go on with, the stored columns and
    /// the rows written.
    struct Written {
        let csv: CSVFileWriter
        let columns: [String]
        let rows: Int
    }

    private let files: [(definition: ReportDefinition, url: URL)]
    private let settings: ReportSettings
    private let stored: StoredMonths
    private let snapshot: String
    private let connection: PostgresConnection
    private let condition = NSCondition()
    private var finished = false
    private var written: [String: Written] = [:]
    private var failure: (any Error)?

    private init(files: [(definition: ReportDefinition, url: URL)], settings: ReportSettings, stored: StoredMonths,
                 snapshot: String, connection: PostgresConnection) {
        self.files = files
        self.settings = settings
        self.stored = stored
        self.snapshot = snapshot
        self.connection = connection
    }

    /// Stages the file of each of `reports` (the job's own files) whose stored lines `BuildReports.writesStoredLines`
    /// says the job writes and that reuses months in `stored`'s plans, in `staged`, and starts the session (`connect`,
    /// on the snapshot `database` exports) that writes their lines; nil, and nothing staged or started, when none does.
    static func start(_ reports: [ReportDefinition], settings: ReportSettings, stored: StoredMonths?, staged: StagedFiles,
                      database: PostgresConnection, connect: () throws -> PostgresConnection) throws -> StoredLinesWriter? {
        guard let stored else { return nil }
        let chosen = reports.filter { definition in
            BuildReports.writesStoredLines(definition, settings: settings)
                && (stored.plan(for: definition).map { $0.firstComputed > settings.firstMonth } ?? false)
        }
        guard !chosen.isEmpty else { return nil }
        let snapshot = try SnapshotSession.export(database, for: "stored lines")
        let connection = try SnapshotSession.connect(connect, for: "stored lines")
        let started = StoredLinesWriter(files: chosen.map { ($0, staged.stage($0.name + ".csv")) }, settings: settings,
                                        stored: stored.on(connection), snapshot: snapshot, connection: connection)
        let thread = Thread { started.run() }
        thread.name = "stored-lines"
        thread.start()
        return started
    }

    /// The staged file of `name` when this writer staged it (the job writes there if it wrote no lines); nil otherwise.
    func url(of name: String) -> URL? {
        files.first { $0.definition.name == name }?.url
    }

    /// Waits for the session and returns `name`'s file with its stored lines written (handed over once: the job goes
    /// on with it), or nil when it wrote none of it. The session's error, if it failed.
    func take(_ name: String) throws -> Written? {
        condition.lock()
        defer { condition.unlock() }
        while !finished { condition.wait() }
        if let failure { throw failure }
        return written.removeValue(forKey: name)
    }

    /// Waits for the session (a failed run), closes the files not handed over and removes every file it staged.
    func end() {
        condition.lock()
        while !finished { condition.wait() }
        let left = written.values
        written.removeAll()
        condition.unlock()
        for file in left { _ = try? file.csv.finish() }
        for (_, url) in files { try? FileManager.default.removeItem(at: url) }
    }

    private func run() {
        var failure: (any Error)?
        var done: [String: Written] = [:]
        do {
            try StoredMonths.failing("stored lines") { try SnapshotSession.begin(connection, snapshot: snapshot) }
            for (definition, url) in files {
                var csv: CSVFileWriter?, columns: [String] = []
                let rows = try stored.replayCSV(definition, header: { stored in
                    let formatter = ReportFormatter(report: definition.name, columns: stored, rawIdentifiers: settings.rawIdentifiers)
                    let file = try CSVFileWriter(url: url)
                    try file.append(formatter.columns.map(\.name))
                    (csv, columns) = (file, stored)
                }, lines: { bytes, _ in try csv?.appendEncoded(bytes) })
                if let rows, let csv { done[definition.name] = Written(csv: csv, columns: columns, rows: rows) }
            }
            _ = try StoredMonths.failing("stored lines") { try connection.execute("COMMIT") }
        } catch {
            failure = error
        }
        connection.close()
        condition.lock()
        written = done
        self.failure = failure
        finished = true
        condition.broadcast()
        condition.unlock()
    }
}
