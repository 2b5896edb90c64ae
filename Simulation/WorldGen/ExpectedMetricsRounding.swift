extension ExpectedMetricsBuilder {
    /// The finished document: every cell rounded once, then the reporting (USD) view per month and provider.
    func finish(seed: UInt64) -> ExpectedMetrics {
        var rows: [ExpectedMetricsRow] = []
        let byMonth = Dictionary(grouping: cells.keys, by: \.month)
        for month in months {
            let keys = (byMonth[month.index] ?? []).sorted()
            for key in keys { if let sums = cells[key] { rows.append(localRow(month, key, sums)) } }
            for provider in Set(keys.map(\.provider)).sorted() {
                rows.append(reportingRow(month, provider, keys.filter { $0.provider == provider }))
            }
        }
        let faults = unreachable.keys.sorted().map { reason in
            UnreachableFaults(reason: reason, subscriptionIds: (unreachable[reason] ?? []).sorted())
        }
        var metrics = ExpectedMetrics(seed: seed, asOf: WorldClock.rfc3339(asOfMs), months: months.map(\.label), rows: rows,
                                      priceChangeCohorts: cohorts.finished(), unreachableFaults: faults,
                                      transitions: cohorts.transitions, fx: fx)
        (metrics.lifecycle, metrics.cohorts) = lifecycle.finished()
        return metrics
    }

    /// A cell in its own currency: twelfths of a micro → micros, rounded half to even.
    private func localRow(_ month: WorldMonth, _ key: CellKey, _ sums: CellSums) -> ExpectedMetricsRow {
        func micros(_ twelfths: Int64) -> Int64 { Int64(ExactRounding.halfEven(Int128(twelfths), 12)) }
        var row = bridgeRow(month, key.provider, key.currency, "local",
                            mrr: micros(sums.mrr), start: micros(sums.start),
                            movements: [micros(sums.new), micros(sums.expansion), micros(sums.contraction), micros(sums.churn),
                                        micros(sums.reactivation)], sums: [sums])
        row.refundsByRefundMonthCount = sums.refundCount
        row.refundsByRefundMonthMicros = sums.refundMicros
        row.chargebacksCount = sums.chargebackCount
        row.chargebacksMicros = sums.chargebackMicros
        row.refundsByChargeMonthCount = sums.chargeCount
        row.refundsByChargeMonthMicros = sums.chargeMicros
        row.familyRevocations = sums.family
        row.graceEntered = sums.graceEntered
        row.graceRecovered = sums.graceRecovered
        row.holdEntered = sums.holdEntered
        row.holdRecovered = sums.holdRecovered
        row.billingChurned = sums.billingChurned
        row.billingOpen = sums.billingOpen
        return row
    }

    /// A provider's month in USD: end and movements at the month's rate, start at the previous month's rate
    /// (so it equals the previous month's end), each rounded once from its exact sum.
    private func reportingRow(_ month: WorldMonth, _ provider: String, _ keys: [CellKey]) -> ExpectedMetricsRow {
        let sums = keys.compactMap { key in cells[key].map { (key.currency, $0) } }
        func usd(_ value: (CellSums) -> Int64, _ rateMonth: WorldMonth) -> Int64 {
            let exact = sums.reduce(Int128(0)) { $0 + Int128(value($1.1)) * Int128(fx.rate($1.0, rateMonth)) }
            return Int64(ExactRounding.halfEven(exact, 12 * Int128(WorldFXRates.scale)))
        }
        return bridgeRow(month, provider, WorldFXRates.quote, "reporting", mrr: usd(\.mrr, month), start: usd(\.start, month.previous),
                         movements: [usd(\.new, month), usd(\.expansion, month), usd(\.contraction, month), usd(\.churn, month),
                                     usd(\.reactivation, month)], sums: sums.map(\.1))
    }

    /// A row with MRR, the bridge (fx is the balancing term) and the movement counts summed over `sums`.
    private func bridgeRow(_ month: WorldMonth, _ provider: String, _ currency: String, _ view: String, mrr: Int64, start: Int64,
                           movements: [Int64], sums: [CellSums]) -> ExpectedMetricsRow {
        let net = movements[0] + movements[1] - movements[2] - movements[3] + movements[4]
        func count(_ value: (CellSums) -> Int) -> Int { sums.reduce(0) { $0 + value($1) } }
        return ExpectedMetricsRow(
            month: month.label, snapshotAt: WorldClock.rfc3339(snapshotMs(month)), provider: provider, currency: currency, view: view,
            mrrMicros: mrr, payingSubscribers: count(\.paying), startMrrMicros: start, fxMicros: mrr - start - net,
            newMicros: movements[0], expansionMicros: movements[1], contractionMicros: movements[2], churnMicros: movements[3],
            reactivationMicros: movements[4], newCount: count(\.newCount), expansionCount: count(\.expansionCount),
            contractionCount: count(\.contractionCount), churnCount: count(\.churnCount), reactivationCount: count(\.reactivationCount))
    }
}
