import Postgres

/// The free trials `SpanBuilder` derives from the rows it holds for the spans, as `report_trial` (migration 0051)
/// derives them from the same rows (Reports/README.md, "Trials from the spans' stream"): a binary COPY stream of
/// `report_trial_run`'s columns, a tuple per subscription with a trial, written to a file the caller loads.
struct SpanTrials {
    private let file: SpillFile
    private var tuple = BinaryCopyTuples(capacity: 256)

    /// Trials written to `file` (empty).
    init(file: SpillFile) {
        self.file = file
    }

    /// Writes the COPY stream's header.
    mutating func begin() throws {
        try append { $0.fileHeader() }
    }

    /// Writes the COPY stream's trailer.
    mutating func end() throws {
        try append { $0.append(Int16(-1)) }
    }

    /// Records one subscription's trial from its `rows` in reading order (a test subscription's never come here), the
    /// first of its charges at `firstCharge`, its id and provider at `subscription` and `provider` of `bytes`: when that
    /// first charge (rank 0) is one of 0, it is the trial (its instant, product and country; its period end bounds the
    /// renewal switch), with the first paid charge (rank 0, amount > 0), the first billing failure (rank 1, or on
    /// hold), the first ending (rank 3), and the last CANCELED and the last RESTARTED without a charge (rank 4) by the
    /// trial's end. Nothing otherwise.
    mutating func record(_ rows: [SpanBuilder.Row], firstCharge: Int?, subscription: Range<Int>, provider: Range<Int>,
                         bytes: [UInt8]) throws {
        guard let firstCharge, rows[firstCharge].amount == 0 else { return }
        let trial = rows[firstCharge]
        var converted: Int64?, failed: Int64?, ended: Int64?, off: Int64?, on: Int64?
        for row in rows {
            if converted == nil, row.rank == 0, let amount = row.amount, amount > 0 { converted = row.effective }
            if failed == nil, row.rank == 1 || row.kind == .hold { failed = row.effective }
            if ended == nil, row.rank == 3 { ended = row.effective }
            // (rows in reading order: the last assignment is the latest; every row read is by the as-of instant)
            if row.rank == 4, trial.periodEnd.map({ row.effective <= $0 }) ?? true {
                if row.kind == .off { off = row.effective } else { on = row.effective }
            }
        }
        try append { tuple in
            func text(_ range: Range<Int>?) {
                guard let range else { return tuple.null() }
                bytes.withUnsafeBytes { tuple.text(UnsafeRawBufferPointer(rebasing: $0[range])) }
            }
            tuple.beginRow(fields: 10)
            text(subscription)
            text(provider)
            tuple.int64(trial.effective)
            text(trial.product)
            text(trial.country)
            for value in [converted, failed, ended, off, on] {
                if let value { tuple.int64(value) } else { tuple.null() }
            }
        }
    }

    /// Encodes with `body` and appends the bytes to the file (buffered there).
    private mutating func append(_ body: (inout BinaryCopyTuples) -> Void) throws {
        tuple.removeAll()
        body(&tuple)
        try tuple.withBytes { try file.append($0) }
    }
}
