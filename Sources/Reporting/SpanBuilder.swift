import CompactMemory
import Foundation
import JobKit
import Postgres

/// Computes the spans of `report_span` (migrations 0035, 0046) in the client, from one binary COPY of the history
/// `report_span_history` reads, sorted here per subscription in reading order, and loads them into the run's
/// `report_span_run` over binary COPY (Reports/README.md, "The spans in the client"); from the same rows, on request,
/// each subscription's free trial as `report_trial` (migration 0051) gives it (Reports/README.md, "Trials from the
/// spans' stream").
///
/// Why (decision, measured in Benchmarks/results.md, "Spans in the client"): `report_span`'s window functions build,
/// per history row, whole-partition arrays of composite values and subscript them; at 200k subscriptions that was
/// 11–14 s of one backend, the longest step of a `--full` run. The same rules read one subscription's rows once in
/// order: a few running counters and four index lists. `report_span` stays the readable definition;
/// `SpanBuilderTests` and the world tests compare the two row for row.
///
/// The history is read on a connection of its own while the spans are loaded on the run's: memory is one run of the
/// sort, one subscription's rows and a few batches of spans.
///
/// Why the client sorts (decision, Benchmarks/results.md, "The deployed command line"): with `ORDER BY` the server
/// sorted the whole history (≈ 300 bytes a row, 2.2 GB at a million subscriptions) with an external merge within the
/// run's work_mem, and the reading backend took 43–49 s of CPU at 1M; sending the rows unsorted it takes 17 s, and
/// `BinaryCopySorter` sorts the same tuples while they arrive, in runs spilled to an unlinked file, in the order the
/// `ORDER BY` gave (`sortKeys`).
struct SpanBuilder {
    /// The columns streamed, in order (the subscription's identity, then its rows' reading order and values).
    /// `transaction_key`, last, is read only to order rows at one instant and rank (`sortKeys`).
    static let columns = ["subscription_id", "provider", "billing_account_id", "effective_at", "rank", "is_test", "expires_at",
                          "amount_micros", "currency_code", "country_code", "product_id", "plan_id", "billing_period",
                          "period_end_at", "factor", "recovered", "kind", "end_at", "transaction_key"]

    /// The reading order, as `ORDER BY subscription_id, effective_at, rank, transaction_key COLLATE "C"` gives it: a
    /// uuid compares by its bytes, an instant and a rank as integers (a test row's NULL rank last), the key bytewise.
    static let sortKeys: [BinaryCopySorter.Key] = [.bytes(0), .integer(3), .integer(4), .bytes(18)]

    /// Bytes of history tuples the sort holds in memory at a time (a run; the rest waits in its spill file).
    static let sortRunBytes = 16 << 20

    /// The version of the rules coded here, part of the stored spans' definition digest (`StoredSpans`): change it
    /// with any change to what a span is, so every store is recomputed once.
    static let rules = "SpanBuilder 2 (migrations 0046, 0051: spans and trials)"

    /// Why the stream cannot be turned into spans.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    // One subscription's rows and bytes, kept across subscriptions.
    private var bytes: [UInt8] = []
    private var rows: [Row] = []
    private var identity: (subscription: Range<Int>, provider: Range<Int>, account: Range<Int>) = (0..<0, 0..<0, 0..<0)
    private var isTest = false
    /// The held subscription's id (its 16 bytes as two words); nil before the first row and after a flush.
    private var current: (UInt64, UInt64)?
    private var states: [Int] = [], charges: [Int] = [], paid: [Int] = [], switches: [Int] = []
    private var out: BinaryCopyTuples
    /// Full batches of span tuples, from the reading thread to the loading one.
    private let batches: BoundedHandOff<BinaryCopyTuples>
    /// Per subscription with history rows, not a test one: its id and the hash of its spans' tuples (`spanHash`),
    /// as binary COPY tuples (34 bytes each, encoded in `hashTuple`), gathered in a file (34 MB at a million
    /// subscriptions) while the spans load, and loaded after them.
    private let hashFile: SpillFile
    private var hashTuple = BinaryCopyTuples(capacity: 64)
    /// When asked for: the subscriptions' trials, written beside the spans (`SpanTrials`).
    private var trials: SpanTrials?
    private(set) var spans = 0

    /// Bytes of span tuples handed over at a time.
    private static let batchBytes = 1 << 20

    private init(batches: BoundedHandOff<BinaryCopyTuples>, hashFile: SpillFile, trialFile: SpillFile?) {
        self.batches = batches
        self.hashFile = hashFile
        trials = trialFile.map { SpanTrials(file: $0) }
        out = BinaryCopyTuples(capacity: Self.batchBytes + (1 << 16))
    }

    /// Fills `table` (created, empty) with the spans of every counted subscription as of `asOf` under `basis`, or of
    /// `subscriptions` (a `uuid[]` value's text) only; returns the number of spans. With `hashTable` (created, empty:
    /// subscription_id uuid, span_hash bigint), also the hash of each subscription's spans (`spanHash`), which
    /// `StoredSpans` compares with the stored one. With `trials` (an empty file), also the same subscriptions' trials,
    /// the rows `report_trial(asOf, basis, subscriptions)` returns, as a binary COPY stream of `report_trial_run`'s
    /// columns written there (`SpanTrials`).
    ///
    /// The history is read on `reader` (a connection of its own that sees what `database` sees: in a run, one that
    /// imported the run's snapshot) by a thread that computes the spans, while this one loads them into `table` on
    /// `database`: the two backends, the sort and the load, work at once, and memory holds a few 1 MiB batches.
    @discardableResult
    static func fill(_ table: String, hashTable: String? = nil, trials: SpillFile? = nil, database: PostgresConnection,
                     reader: PostgresConnection, asOf: String, basis: String, subscriptions: String?) throws -> Int {
        let ids = subscriptions.map { SQLLiteral.quoted($0) + "::uuid[]" } ?? "NULL::uuid[]"
        let sql = """
            COPY (SELECT \(columns.joined(separator: ", "))
                  FROM report_span_history(\(SQLLiteral.quoted(asOf))::timestamptz, \(SQLLiteral.quoted(basis)), \(ids)))
            TO STDOUT (FORMAT binary)
            """
        let batches = BoundedHandOff<BinaryCopyTuples>(depth: 4, spares: 4)
        let stream = SpanStream(builder: SpanBuilder(batches: batches, hashFile: try SpillFile(purpose: "report span hashes"),
                                                     trialFile: trials),
                                reader: reader, sql: sql)
        let thread = Thread { stream.run() }
        thread.name = "report-spans"
        thread.stackSize = 1 << 20
        thread.start()
        var failure: Error?
        do {
            _ = try database.copyIn("COPY \(table) FROM STDIN (FORMAT binary)") { copy in
                while var batch = try batches.take() {
                    try batch.withBytes { try copy.writeRaw($0) }
                    batch.removeAll()
                    batches.recycle(batch)
                }
            }
        } catch {
            failure = error
            batches.stop(error)
        }
        stream.done.wait()
        if let failure { throw failure }
        let builder = stream.builder
        if let hashTable {
            try database.copyIn(hashTable, binaryFrom: builder.hashFile)
        }
        return builder.spans
    }

    /// The reading thread's side: the history's COPY on `reader`, turned into span batches.
    private final class SpanStream: @unchecked Sendable {
        var builder: SpanBuilder
        let reader: PostgresConnection
        let sql: String
        /// Signalled when the thread has finished the hand-over (its last act).
        let done = DispatchSemaphore(value: 0)

        init(builder: SpanBuilder, reader: PostgresConnection, sql: String) {
            self.builder = builder
            self.reader = reader
            self.sql = sql
        }

        func run() {
            defer { done.signal() }
            let batches = builder.batches
            batches.finish(after: Result { try read() })
        }

        private func read() throws {
            var copy = BinaryCopyReader()
            let sorter = BinaryCopySorter(keys: SpanBuilder.sortKeys, runBytes: SpanBuilder.sortRunBytes)
            _ = try reader.copyOutMessages(sql) { message in
                guard try copy.read(message) else { return }
                try sorter.add(message, fields: copy.fields)
            }
            guard copy.ended else { throw Failure(description: "report spans: the history stream ended without its trailer") }
            builder.out.fileHeader()
            try builder.appendToHashes { $0.fileHeader() }
            try builder.trials?.begin()
            var tuples = BinaryCopyReader.afterHeader()
            try sorter.finish { tuple in
                if try tuples.read(tuple) { try builder.add(tuple, tuples.fields) }
            }
            try builder.flushSubscription()
            builder.out.append(Int16(-1))
            try builder.appendToHashes { $0.append(Int16(-1)) }
            try builder.trials?.end()
            try builder.handOver()
        }
    }

    // MARK: - Reading the stream

    /// Adds one history row; a new subscription first turns the previous one's rows into spans.
    private mutating func add(_ message: UnsafeRawBufferPointer, _ fields: [Range<Int>?]) throws {
        guard fields.count == Self.columns.count, let subscription = fields[0], let provider = fields[1],
              let account = fields[2], let effective = fields[3], let test = fields[5], test.count == 1 else {
            throw Failure(description: "report spans: a history row of \(fields.count) fields without its subscription, provider, account, instant or test flag")
        }
        guard subscription.count == 16 else { throw Failure(description: "report spans: a subscription id of \(subscription.count) bytes") }
        let id = (message.loadUnaligned(fromByteOffset: subscription.lowerBound, as: UInt64.self),
                  message.loadUnaligned(fromByteOffset: subscription.lowerBound + 8, as: UInt64.self))
        if let current, current != id { try flushSubscription() }
        let base = bytes.count
        func shifted(_ range: Range<Int>?) -> Range<Int>? { range.map { ($0.lowerBound + base)..<($0.upperBound + base) } }
        func int64(_ index: Int) -> Int64? { fields[index].flatMap { BinaryCopyReader.int64(message, $0) } }
        func int32(_ index: Int) -> Int64? {
            guard let field = fields[index], field.count == 4 else { return nil }
            return Int64(Int32(bigEndian: message.loadUnaligned(fromByteOffset: field.lowerBound, as: Int32.self)))
        }
        func flag(_ index: Int) -> Bool { fields[index].map { $0.count == 1 && message[$0.lowerBound] != 0 } ?? false }
        if current == nil {
            current = id
            bytes.append(contentsOf: message)
            identity = (shifted(subscription) ?? 0..<0, shifted(provider) ?? 0..<0, shifted(account) ?? 0..<0)
        } else if !isTest {
            bytes.append(contentsOf: message)
        }
        if flag(5) { isTest = true }
        if isTest { return }
        guard let instant = BinaryCopyReader.int64(message, effective), let rank = int32(4) else {
            throw Failure(description: "report spans: a history row without its instant or rank")
        }
        rows.append(Row(effective: instant, rank: Int32(rank), expires: int64(6), amount: int64(7), currency: shifted(fields[8]),
                        country: shifted(fields[9]), product: shifted(fields[10]), plan: shifted(fields[11]),
                        period: shifted(fields[12]), periodEnd: int64(13), factor: int32(14), recovered: flag(15),
                        kind: Self.kind(message, fields[16]), end: int64(17)))
    }

    // MARK: - One subscription's spans

    /// Writes the spans of the subscription whose rows are held (none for a test subscription) and forgets them.
    private mutating func flushSubscription() throws {
        defer {
            rows.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
            isTest = false
            current = nil
        }
        guard !isTest, !rows.isEmpty else { return }
        if out.count >= Self.batchBytes { try handOver() }
        let start = out.count
        states.removeAll(keepingCapacity: true)
        charges.removeAll(keepingCapacity: true)
        paid.removeAll(keepingCapacity: true)
        switches.removeAll(keepingCapacity: true)
        for (index, row) in rows.enumerated() {
            if row.rank <= 3 { states.append(index) }
            if row.rank == 0 {
                charges.append(index)
                if let amount = row.amount, amount > 0, row.factor != nil { paid.append(index) }
            }
            if row.rank == 0 || row.rank == 4 { switches.append(index) }
        }
        // The running counts of `report_span`'s windows: how many of each list's rows are at or before this one.
        var stateNo = 0, chargeNo = 0, paidNo = 0, switchNo = 0
        for index in rows.indices {
            let row = rows[index]
            while stateNo < states.count, states[stateNo] <= index { stateNo += 1 }
            while chargeNo < charges.count, charges[chargeNo] <= index { chargeNo += 1 }
            while paidNo < paid.count, paid[paidNo] <= index { paidNo += 1 }
            while switchNo < switches.count, switches[switchNo] <= index { switchNo += 1 }
            let nextAt = index + 1 < rows.count ? rows[index + 1].effective : nil
            if row.rank <= 1 {
                let nextValueAt = stateNo < states.count ? rows[states[stateNo]].effective : nil
                try contribution(row, nextValueAt: nextValueAt,
                                 next: chargeNo < charges.count && rows[charges[chargeNo]].recovered ? rows[charges[chargeNo]] : nil,
                                 latest: chargeNo > 0 ? rows[charges[chargeNo - 1]] : nil,
                                 latestPaid: paidNo > 0 ? rows[paid[paidNo - 1]] : nil)
            }
            if stateNo > 0 {
                let state = rows[states[stateNo - 1]]
                let product = (chargeNo > 0 ? rows[charges[chargeNo - 1]].product : nil) ?? row.product
                let renewalOff = switchNo > 0 && rows[switches[switchNo - 1]].kind == .off
                try stateSpans(from: row.effective, nextAt: nextAt, kind: Self.stateKind(state), end: state.end,
                               product: product, renewalOff: renewalOff)
            }
        }
        try recordHash(from: start)
        try trials?.record(rows, firstCharge: charges.first, subscription: identity.subscription, provider: identity.provider,
                           bytes: bytes)
    }

    /// `amount × factor` of a charge, failing as the server's bigint product would.
    private func twelfths(_ amount: Int64?, _ factor: Int64?) throws -> Int64? {
        guard let amount, let factor else { return nil }
        let (product, overflow) = amount.multipliedReportingOverflow(by: factor)
        guard !overflow else { throw Failure(description: "report spans: \(amount) micros × \(factor) twelfths overflows bigint") }
        return product
    }

    /// The contribution span of a charge (rank 0) or a grace row (rank 1), as `report_span`'s `valued`: a grace row
    /// is priced by the recovering charge after it (`next`), else by its own amount at the latest charge's factor,
    /// else by the latest paid charge, and only when there is a paid charge before it.
    private mutating func contribution(_ row: Row, nextValueAt: Int64?, next: Row?, latest: Row?, latestPaid: Row?) throws {
        let value: Int64?, end: Int64?
        var currency = row.currency, country = row.country, product = row.product, plan = row.plan, period = row.period
        if row.rank == 0 {
            value = try twelfths(row.amount, row.factor)
            end = row.periodEnd
        } else {
            let paidValue = try latestPaid.flatMap { try twelfths($0.amount, $0.factor) }
            if paidValue != nil {
                value = try next.flatMap { try twelfths($0.amount, $0.factor) } ?? twelfths(row.amount, latest?.factor) ?? paidValue
            } else {
                value = nil
            }
            end = row.expires.flatMap { $0 > row.effective ? $0 : nil }
            currency = next?.currency ?? row.currency ?? latestPaid?.currency
            country = next?.country ?? latest?.country ?? row.country
            product = next?.product ?? latest?.product ?? row.product
            plan = next?.plan ?? latest?.plan ?? row.plan
            period = next?.period ?? latest?.period ?? row.period
        }
        guard let value, value > 0 else { return }
        try begin()
        out.null()
        out.int64(row.effective)
        optional(least(nextValueAt, end))
        field(currency)
        field(country)
        field(product)
        field(plan)
        field(period)
        out.int64(value)
    }

    /// The state spans from one row until the next (`report_span`'s `state_span`): the state in force, and billing
    /// retry after a grace period's end.
    private mutating func stateSpans(from: Int64, nextAt: Int64?, kind: StateKind, end: Int64?, product: Range<Int>?,
                                     renewalOff: Bool) throws {
        let state: StaticString?
        switch kind {
        case .trial: state = "trialing"
        case .paid: state = renewalOff ? "cancelled_paid_through" : "paying"
        case .grace: state = "grace"
        case .hold: state = "billing_retry"
        case .paused: state = "paused"
        case .ended, .other: state = nil
        }
        if let state { try stateSpan(state, from: from, to: least(nextAt, end), product: product) }
        if kind == .grace, let end { try stateSpan("billing_retry", from: Swift.max(from, end), to: nextAt, product: product) }
    }

    private mutating func stateSpan(_ state: StaticString, from: Int64, to: Int64?, product: Range<Int>?) throws {
        try begin(account: false)
        out.text(UnsafeRawBufferPointer(start: state.utf8Start, count: state.utf8CodeUnitCount))
        out.int64(from)
        optional(to)
        out.null()
        out.null()
        field(product)
        out.null()
        out.null()
        out.null()
    }

    /// `LEAST` as PostgreSQL computes it: NULLs ignored.
    private func least(_ a: Int64?, _ b: Int64?) -> Int64? {
        guard let a else { return b }
        guard let b else { return a }
        return Swift.min(a, b)
    }

    // MARK: - Writing spans

    /// Starts a span: its 12 fields, the subscription, provider and (for a contribution) billing account.
    private mutating func begin(account: Bool = true) throws {
        spans += 1
        out.beginRow(fields: 12)
        field(identity.subscription)
        field(identity.provider)
        if account { field(identity.account) } else { out.null() }
    }

    private mutating func field(_ range: Range<Int>?) {
        guard let range else { return out.null() }
        bytes.withUnsafeBytes { out.text(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    private mutating func optional(_ value: Int64?) {
        if let value { out.int64(value) } else { out.null() }
    }

    /// Hands the full batch to the loading thread and starts the next (a spent one when there is one).
    private mutating func handOver() throws {
        let full = out
        out = batches.spare() ?? BinaryCopyTuples(capacity: Self.batchBytes + (1 << 16))
        try batches.put(full)
    }

    /// Records the held subscription's id and the hash of its spans' tuples, written from `start` of `out` on.
    private mutating func recordHash(from start: Int) throws {
        let hash = out.withBytes { Self.spanHash(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        let subscription = identity.subscription
        let bytes = self.bytes
        try appendToHashes { tuple in
            tuple.beginRow(fields: 2)
            bytes.withUnsafeBytes { tuple.text(UnsafeRawBufferPointer(rebasing: $0[subscription])) }
            tuple.int64(hash)
        }
    }

    /// Encodes with `body` and appends the bytes to the hashes' file (buffered there).
    private mutating func appendToHashes(_ body: (inout BinaryCopyTuples) -> Void) throws {
        hashTuple.removeAll()
        body(&hashTuple)
        try hashTuple.withBytes { try hashFile.append($0) }
    }
}
