import Foundation
import Postgres

/// What one reconcile of one provider's period found.
public struct ReconciliationResult: Sendable {
    public var period: ReconciliationPeriod
    /// Rows recorded after this instant were left out.
    public var knownAt: Date
    /// The period's items, then its prior-period adjustments.
    public var items: [ReconciliationItem]
    /// The staging files read: the period's and its neighbours' (a closed period is recomputed from exactly these).
    public var files: [ReportFileRef]
}

/// A run without its items: what `reconciliation_run` records besides the item count and the CSV's hash.
public struct ReconciliationRun: Sendable {
    public var period: ReconciliationPeriod
    /// Rows recorded after this instant were left out.
    public var knownAt: Date
    /// The files read (see `ReconciliationResult.files`).
    public var files: [ReportFileRef]

    /// Creates a run.
    public init(period: ReconciliationPeriod, knownAt: Date, files: [ReportFileRef]) {
        self.period = period
        self.knownAt = knownAt
        self.files = files
    }

    /// The run of `result`.
    public init(_ result: ReconciliationResult) {
        self.init(period: result.period, knownAt: result.knownAt, files: result.files)
    }
}

/// Reconciles one provider's period: gathers both sides of the period and its neighbours, categorises every unit,
/// and lists the prior-period adjustments (rows of a closed period recorded after its close) that land in it.
public struct Reconciler {
    let database: PostgresConnection
    let categorizerWindow: Int64

    /// Creates a reconciler reading `database`.
    public init(database: PostgresConnection, windowSeconds: Int64 = ReconciliationWindow.timingSeconds) {
        self.database = database
        categorizerWindow = windowSeconds
    }

    /// Reconciles `period` with the database as known at `knownAt`; `only` restricts the staged files read (the
    /// period's and its neighbours') to those ids: a closed period's basis.
    public func reconcile(_ period: ReconciliationPeriod, knownAt: Date, only: Set<Int64>? = nil) throws -> ReconciliationResult {
        let previous = period.previous ?? period
        let next = period.next ?? period
        let periods = [previous, period, next]
        var items: [ReconciliationItem]
        var files: [ReportFileRef]
        switch period.provider {
        case .google:
            var staged: [ReconciliationItem] = []
            let run = try googleStaged(period, knownAt: knownAt, only: only, sink: nil) { staged.append($0) }
            return ReconciliationResult(period: period, knownAt: knownAt, items: staged, files: run.files)
        case .apple:
            let source = AppleSource(database: database, knownAt: knownAt, windowSeconds: categorizerWindow)
            let (cells, read) = try source.cells(periods, only: only)
            items = AppleCategorizer().items(
                current: cells[period.label] ?? [:], previous: cells[previous.label] ?? [:], next: cells[next.label] ?? [:])
            files = read
        }
        items += try PriorPeriodAdjustments(database: database).items(for: period, knownAt: knownAt)
        return ReconciliationResult(period: period, knownAt: knownAt, items: items, files: files.sorted())
    }

    /// `reconcile(_:knownAt:only:)` into `sink` (the job's way): a Google month goes through the compact engine, its
    /// matched units written to the sink without an item each; an Apple period item by item.
    public func reconcile(_ period: ReconciliationPeriod, knownAt: Date, only: Set<Int64>? = nil,
                          into sink: ReconciliationItemSink) throws -> ReconciliationRun {
        if period.provider == .google { return try googleStaged(period, knownAt: knownAt, only: only, sink: sink, emit: sink.add) }
        let result = try reconcile(period, knownAt: knownAt, only: only)
        for item in result.items { try sink.add(item) }
        return ReconciliationRun(result)
    }

    /// A Google month reconciled in one pass: the report sides of the month and its neighbours (their staged files)
    /// and the database side of all three arrive as one stream sorted by order ID (`GoogleMonthStream`), each order
    /// categorised as soon as its rows are in, its items to `sink` / `emit` in key order; then the prior-period
    /// adjustments.
    func googleStaged(_ period: ReconciliationPeriod, knownAt: Date, only: Set<Int64>?, sink: ReconciliationItemSink?,
                      emit: (ReconciliationItem) throws -> Void) throws -> ReconciliationRun {
        let periods = [period.previous ?? period, period, period.next ?? period]
        let files = try GoogleMonthStream.files(database, periods, only: only)
        var items = GoogleMonthItems(categorizer: GoogleCategorizer(windowSeconds: categorizerWindow), period: period,
                                     periods: periods, sink: sink)
        try GoogleMonthStream(database: database, knownAt: knownAt).read(periods, files: files) { order in
            try items.add(&order, emit)
        }
        try items.finish()
        for item in try PriorPeriodAdjustments(database: database).items(for: period, knownAt: knownAt) { try emit(item) }
        return ReconciliationRun(period: period, knownAt: knownAt, files: files.sorted())
    }
}
