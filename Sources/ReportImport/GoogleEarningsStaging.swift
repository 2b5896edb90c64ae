import Postgres
import StoreExports

/// Stages a Google earnings file while it is read: its rows, as soon as `GoogleEarningsReading` has read them, are
/// folded into facts (`GoogleEarningsFacts`) and encoded as binary `COPY` tuples on a thread of their own
/// (`GoogleEarningsFactPipe`) that go into `google_earnings_fact` through one binary `COPY` (the server parses no
/// text); then the file itself is kept as its bytes (`KeptReportFile`). The file's stamp is the same before the read and after the bytes are kept, or the file
/// is refused: the bytes kept are the bytes parsed. Nothing of the file is held but a few chunks and batches of facts.
enum GoogleEarningsStaging {
    /// What staging a file did: the read's tally and the bytes kept.
    struct Staged {
        let tally: GoogleEarningsTally
        let kept: KeptReportFile
    }

    /// Stages the earnings file at `path` under `fileID`; a defect of the file aborts the COPY and is thrown (the
    /// caller's transaction then keeps nothing). `kept`: the file's hash and size from a first look, if taken
    /// (`KeptReportFile.keep`).
    static func stage(_ path: String, fileID: Int64, kept known: KeptReportFile? = nil, into database: PostgresConnection) throws -> Staged {
        let name = ReportLoader.fileName(path)
        let before = FileStamp.of(path)
        var tally: GoogleEarningsTally?
        try database.copyIn(GoogleEarningsFact.copy) { copy in
            var writer = BinaryCopyWriter(copy)
            // Read, folded and encoded on a thread of its own (`GoogleEarningsFactPipe`), sent from here.
            tally = try GoogleEarningsFactPipe.run(path, fileID: fileID) { try writer.tuples($0) }.tally
            try writer.finish()
        }
        guard let tally else { preconditionFailure("the COPY body returned without reading") }
        let kept = try KeptReportFile.keep(path, name: name, known: known, in: database)
        let after = FileStamp.of(path)
        guard let before, before == after, before.size == kept.size else {
            throw StoreReportError(file: name, line: 1, column: 1, reason: "the file changed while it was read (before: "
                                   + "\(before?.description ?? "unreadable"); after: \(after?.description ?? "gone")); "
                                   + "nothing imported: import it again once it is complete")
        }
        return Staged(tally: tally, kept: kept)
    }
}
