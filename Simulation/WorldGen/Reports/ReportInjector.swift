import SeededRandom

/// Turns the database's view of charges (the ledger) into the stores' view: drops test purchases and
/// injects the configured discrepancies, recording each one.
struct ReportInjector {
    let catalogue: WorldCatalogue
    let seed: UInt64
    let asOfMs: Int64
    let shares: ReportDiscrepancyShares
    /// One stream for the whole ledger, so a world applied batch by batch draws exactly as one applied at once.
    private var rng: SplitMix64
    /// The Apple cells' groups a difference already touches (see `AppleGroups`).
    private var appleGroups = AppleGroups()

    init(catalogue: WorldCatalogue, seed: UInt64, asOfMs: Int64, shares: ReportDiscrepancyShares) {
        self.catalogue = catalogue
        self.seed = seed
        self.asOfMs = asOfMs
        self.shares = shares
        rng = SplitMix64(seed: seed, salt: 0x5245_504F_5254)
    }

    static let order: [ReportDiscrepancyKind] = [.periodBoundary, .missingInDatabase, .missingInReport, .amountMismatch, .duplicate,
                                                 .refundMissingInDatabase, .currencyMismatch]

    /// The report's entries (in ledger order; injected refunds right after their charge) and the discrepancies.
    /// Successive calls continue the ledger: each call must hold whole subscriptions.
    mutating func apply(_ ledger: [ReportEntry]) -> (entries: [ReportEntry], discrepancies: [ReportDiscrepancy]) {
        let refunded = Set(ledger.filter { $0.kind == .refund }.map(refundedId))
        var entries: [ReportEntry] = []
        var discrepancies: [ReportDiscrepancy] = []
        for entry in ledger {
            if entry.isTest {
                if !entry.isFree, !entry.storeOnly { discrepancies.append(record(.testPurchaseExcluded, entry, report: nil)) }
                continue
            }
            if entry.storeOnly {
                // A projection fault's store side: not the injector's choice, so it takes its group unconditionally.
                // It is a return the database lacks, like the only other difference on the return side (an injected
                // refund), so the two can share a cell (its units add up) but never cancel or pair.
                if entry.isApple { appleGroups.take(entry) }
                discrepancies.append(record(.refundMissingInDatabase, entry, report: entry))
                entries.append(entry)
                continue
            }
            if entry.kind == .refund, !entry.isApple, let orderId = entry.orderId,
               GooglePartialRefund.isPartial(orderId: orderId, seed: seed) {
                // Not an injected error but a store fact the database cannot see: it is listed like one.
                var partial = entry
                partial.amountMicros = GooglePartialRefund.amount(entry.amountMicros, currency: entry.currency)
                partial.isPartialRefund = true
                discrepancies.append(record(.partialRefund, entry, report: partial))
                entries.append(partial)
                continue
            }
            guard entry.kind == .charge, !entry.isFree else { entries.append(entry); continue }
            let draw = rng.unit()
            var lower = 0.0
            var chosen: (ReportDiscrepancyKind, ReportEntry?)?
            for kind in Self.order {
                let upper = lower + shares.share(kind)
                defer { lower = upper }
                guard draw >= lower, draw < upper else { continue }
                chosen = eligible(kind, entry, refunded: refunded).map { (kind, $0) }
                // Apple: only where no other difference can meet it (an injected refund touches only its return).
                if entry.isApple, let changed = chosen?.1,
                   !appleGroups.takeIfFree(kind == .refundMissingInDatabase ? [changed] : [entry, changed]) { chosen = nil }
                break
            }
            guard let (kind, changed) = chosen else { entries.append(entry); continue }
            discrepancies.append(kind == .refundMissingInDatabase ? record(kind, changed ?? entry, report: changed)
                                                                  : record(kind, entry, report: changed))
            switch kind {
            case .missingInReport: break
            case .duplicate: entries += [entry, entry]
            case .refundMissingInDatabase: entries += [entry, changed ?? entry]
            default: entries.append(changed ?? entry)
            }
        }
        return (entries, discrepancies)
    }

    /// The entry as the report carries it when `kind` applies to `entry`, or nil when it is not eligible.
    /// (For `missingInReport` the entry itself is returned, meaning eligible; for a refund: the refund.)
    func eligible(_ kind: ReportDiscrepancyKind, _ entry: ReportEntry, refunded: Set<String>) -> ReportEntry? {
        var changed = entry
        switch kind {
        case .missingInDatabase, .missingInReport, .duplicate, .testPurchaseExcluded:
            return entry
        case .amountMismatch:
            // One percent more (at least one minor unit; whole units in zero-decimal currencies such as JPY).
            let step = ReportDecimal.share(entry.amountMicros, 1, 100)
            changed.amountMicros += ReportProducts.zeroDecimalCurrencies.contains(entry.currency)
                ? max(ReportDecimal.roundDiv(step, 1_000_000) * 1_000_000, 1_000_000) : max(step, 10_000)
            return changed
        case .currencyMismatch:
            changed.currency = entry.currency == "USD" ? "EUR" : "USD"
            return changed
        case .refundMissingInDatabase:
            guard !refunded.contains(refundedId(entry)), entry.atMs + 3 * ReportCalendar.day <= asOfMs else { return nil }
            changed.kind = .refund
            changed.transactionKey = entry.transactionKey + ":REFUNDED"
            changed.atMs = entry.atMs + 3 * ReportCalendar.day
            return changed
        case .partialRefund:
            return nil // a store fact applied to the world's own refunds, never drawn
        case .periodBoundary:
            let (start, end) = Self.periodBounds(entry)
            let window = shares.boundaryWindowHours * ReportCalendar.hour
            if entry.atMs - start < end - entry.atMs {
                guard entry.atMs - start < window else { return nil }
                changed.atMs = start - ReportCalendar.hour
            } else {
                guard end - entry.atMs < window, end + ReportCalendar.hour <= asOfMs else { return nil }
                changed.atMs = end + ReportCalendar.hour
            }
            changed.purchaseAtMs = changed.atMs
            return changed
        }
    }

    /// The charge a refund refunds (or a charge itself): Google order ID, Apple transaction key.
    func refundedId(_ entry: ReportEntry) -> String {
        if let order = entry.orderId { return entry.subscriptionId + "|" + order }
        let key = entry.transactionKey
        return entry.subscriptionId + "|" + (key.hasSuffix(":REFUNDED") ? String(key.dropLast(":REFUNDED".count)) : key)
    }

    /// The UTC bounds of the report period holding the entry (Apple fiscal period, Google Pacific month).
    static func periodBounds(_ entry: ReportEntry) -> (start: Int64, end: Int64) {
        entry.isApple ? AppleFiscalPeriod.containing(ms: entry.atMs).bounds : ReportCalendar.pacificMonthBounds(entry.atMs)
    }

    /// The report period key of an instant: Apple fiscal `YYYY-MM`, Google `YYYYMM`.
    static func periodKey(_ entry: ReportEntry) -> String {
        entry.isApple ? AppleFiscalPeriod.containing(ms: entry.atMs).reportDate : ReportCalendar.pacificMonth(entry.atMs)
    }

    /// The kind a reconciliation at the provider's grain sees: an Apple duplicate is one more report unit (missing in
    /// the database); a Google partial refund is a refund the database does not reflect.
    static func observedKind(_ kind: ReportDiscrepancyKind, isApple: Bool) -> ReportDiscrepancyKind {
        if isApple && kind == .duplicate { return .missingInDatabase }
        return kind == .partialRefund ? .refundMissingInDatabase : kind
    }

    func record(_ kind: ReportDiscrepancyKind, _ entry: ReportEntry, report: ReportEntry?) -> ReportDiscrepancy {
        let plan = catalogue.plans[entry.plan]
        let sign: Int64 = entry.kind == .refund ? -1 : 1
        var shown: ReportEntry? = report
        if kind == .missingInReport || kind == .testPurchaseExcluded { shown = nil }
        if kind == .missingInDatabase || kind == .duplicate { shown = entry }
        return ReportDiscrepancy(
            kind: kind, provider: entry.provider, subscriptionId: entry.subscriptionId, transactionKey: entry.transactionKey,
            observedKind: Self.observedKind(kind, isApple: entry.isApple),
            orderId: entry.orderId, productId: entry.isApple ? plan.appleProductId : plan.googleProductId,
            country: entry.country, currency: entry.currency,
            reportCurrency: kind == .currencyMismatch ? report?.currency : nil,
            databaseMicros: kind == .missingInDatabase || kind == .refundMissingInDatabase ? nil : sign * entry.amountMicros,
            reportMicros: shown.map { ($0.kind == .refund ? -1 : 1) * $0.amountMicros },
            databaseAt: WorldClock.rfc3339(entry.atMs), reportAt: shown.map { WorldClock.rfc3339($0.atMs) },
            databasePeriod: Self.periodKey(entry), reportPeriod: shown.map(Self.periodKey))
    }
}
