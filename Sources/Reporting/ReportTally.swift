import JobKit

/// What reading one report adds to the job's summary (`reused_<report>` notes, the `rows_reused` count), collected
/// where the report is read — the job's session, or the late session's thread (`LateReports`) — and added to the
/// job's context on the job's thread (`add(to:)`): the context is not shared between threads.
final class ReportTally {
    private var notes: [(name: String, value: String)] = []
    private var counts: [(name: String, amount: Int)] = []

    /// Records the note `name` = `value`.
    func note(_ name: String, _ value: String) { notes.append((name, value)) }

    /// Records `amount` more of the count `name`.
    func count(_ name: String, by amount: Int) { counts.append((name, amount)) }

    /// Adds what was recorded to `context`, in the order it was recorded.
    func add(to context: JobContext) {
        for (name, value) in notes { context.note(name, value) }
        for (name, amount) in counts { context.count(name, by: amount) }
    }
}
