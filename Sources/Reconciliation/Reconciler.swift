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
            if let run = try googleStaged(period, knownAt: knownAt, only: only, sink: nil, emit: { staged.append($0) }) {
                return ReconciliationResult(period: period, knownAt: knownAt, items: staged, files: run.files)
            }
            (items, files) = try googleUnitByUnit(period, knownAt: knownAt, only: only)
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

    /// A Google month's items (without the prior-period adjustments) built unit by unit as dictionaries, every side
    /// read row by row (`GoogleSource`): a month with estimated-sales files only, and the reference the compact engine
    /// is tested against.
    func googleUnitByUnit(_ period: ReconciliationPeriod, knownAt: Date, only: Set<Int64>?) throws -> ([ReconciliationItem], [ReportFileRef]) {
        let previous = period.previous ?? period
        let next = period.next ?? period
        let source = GoogleSource(database: database, knownAt: knownAt)
        let (report, read) = try source.report([previous, period, next], only: only)
        let databaseSide = try source.database([previous, period, next])
        func sides(_ p: ReconciliationPeriod) -> GoogleCategorizer.Sides {
            var s = GoogleCategorizer.Sides()
            s.report = report[p.label] ?? [:]
            s.database = databaseSide[p.label] ?? [:]
            return s
        }
        let items = GoogleCategorizer(windowSeconds: categorizerWindow).items(
            current: sides(period), previous: sides(previous), next: sides(next), start: period.start, end: period.end)
        return (items, read)
    }

    /// `reconcile(_:knownAt:only:)` into `sink` (the job's way): a Google month with staged earnings goes through the
    /// compact engine, its matched units written to the sink without an item each; other periods item by item.
    public func reconcile(_ period: ReconciliationPeriod, knownAt: Date, only: Set<Int64>? = nil,
                          into sink: ReconciliationItemSink) throws -> ReconciliationRun {
        if let run = try googleStaged(period, knownAt: knownAt, only: only, sink: sink, emit: sink.add) { return run }
        let result = try reconcile(period, knownAt: knownAt, only: only)
        for item in result.items { try sink.add(item) }
        return ReconciliationRun(result)
    }

    /// A Google month whose earnings are staged, reconciled by the compact engine: the month's rows read with one
    /// binary COPY (`GoogleStagedSource`), the neighbours' report sides from their staged files, then the items in
    /// key order to `sink` / `emit`, then the prior-period adjustments. Nil for Apple and for a month without staged
    /// earnings (estimated sales only): those go item by item.
    func googleStaged(_ period: ReconciliationPeriod, knownAt: Date, only: Set<Int64>?, sink: ReconciliationItemSink?,
                      itemChunk: Int = GoogleCategorizer.itemChunk,
                      emit: (ReconciliationItem) throws -> Void) throws -> ReconciliationRun? {
        guard period.provider == .google, let previous = period.previous, let next = period.next else { return nil }
        let earnings = try ReportFileRef.current(database, kinds: ["googleEarnings"], periods: [period.label], only: only)
        guard !earnings.isEmpty else { return nil }
        let read = try GoogleStagedSource(database: database, knownAt: knownAt).read(files: earnings, periods: [previous, period, next])
        let (neighbours, staged) = try GoogleSource(database: database, knownAt: knownAt).report([previous, next], only: only)
        try GoogleCategorizer(windowSeconds: categorizerWindow).forEachItem(
            report: read.report, database: read.database, staged: neighbours, period: period, sink: sink, chunkSize: itemChunk, emit)
        for item in try PriorPeriodAdjustments(database: database).items(for: period, knownAt: knownAt) { try emit(item) }
        return ReconciliationRun(period: period, knownAt: knownAt, files: (earnings + staged).sorted())
    }
}
