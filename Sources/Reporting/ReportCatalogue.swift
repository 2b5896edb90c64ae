/// Every report `build-reports` writes, in sheet order, and the FX pre-check.
///
/// Every chart names the columns of its report's final SELECT (Reports/README.md describes them); a chart whose
/// columns are missing is skipped with a note on the cover sheet, so the catalogue tests check each one draws.
public enum ReportCatalogue {
    /// The report listing the (month, currency) pairs that lack an FX rate; required, run first, and any row fails the
    /// run.
    public static let fxMissing = "fx_missing"

    /// The movements chart's colours: gains in greens, losses in reds, FX in grey.
    public static let movementColors: [String: UInt32] = [
        "new_micros": 0x1B7837, "expansion_micros": 0x5AAE61, "reactivation_micros": 0xA6DBA0,
        "contraction_micros": 0xF4A582, "churn_micros": 0xB2182B, "fx_micros": 0x999999,
    ]

    /// The reports whose sheets are the workbook's summary, in print order, right after the cover and the Charts sheet:
    /// the cover, the charts and these print in at most 20 pages (Reports/README.md, "Workbook"). Every other report's
    /// sheet is a detail table after them, in catalogue order; a `detail` report has none unless asked.
    public static let summarySheets = ["kpis", "mrr_bridge", "subscribers", "price_change_churn", "reconciliation"]

    /// `items` (reports, by `name`) in the workbook's order: the summary sheets first, in their order, then the others
    /// in the order given.
    public static func printOrder<Item>(_ items: [Item], name: (Item) -> String) -> [Item] {
        let ranked = items.enumerated().map { (rank: summarySheets.firstIndex(of: name($0.element)) ?? summarySheets.count, $0.offset, $0.element) }
        return ranked.sorted { ($0.rank, $0.1) < ($1.rank, $1.1) }.map { $0.2 }
    }

    /// The reports, in catalogue order (the workbook's sheets: `printOrder`).
    public static let standard: [ReportDefinition] = [
        ReportDefinition(
            name: "mrr", sheet: "MRR",
            summary: "month-end MRR, paying subscribers and ARPPU by provider, product, plan, billing period, currency and country",
            required: true, reuse: .monthEnd(column: "month")),
        ReportDefinition(
            name: "mrr_bridge", sheet: "MRR bridge",
            summary: "per month, provider and view (local currency, reporting currency): start, FX, new, expansion, contraction, churn, reactivation, end",
            required: true,
            charts: [
                ReportChart(kind: .line, title: "MRR in the reporting currency by provider", values: ["mrr_micros"],
                            seriesColumns: ["provider"], filter: ["view": "reporting", "currency": "$currency"], valueAxis: "MRR"),
                ReportChart(kind: .stackedColumn, title: "MRR movements in the reporting currency (all providers)",
                            values: ["new_micros", "expansion_micros", "reactivation_micros", "contraction_micros", "churn_micros", "fx_micros"],
                            filter: ["view": "reporting", "currency": "$currency"], negated: ["contraction_micros", "churn_micros"],
                            valueAxis: "MRR change", combine: .sum, colors: ReportCatalogue.movementColors),
            ],
            reuse: .monthEnd(column: "month")),
        ReportDefinition(
            name: "mrr_movements", sheet: "MRR movements",
            summary: "per month, provider, billing account and currency: the movement the bridge sums",
            required: true, reuse: .monthEnd(column: "month"), detail: true),
        ReportDefinition(
            name: "refunds", sheet: "Refunds",
            summary: "refunds, chargebacks and family revocations by refund month and by charge month: counts, amounts, refund rate, days",
            required: true,
            charts: [ReportChart(kind: .line, title: "Refund rate by charge month (refunded / paid transactions)", values: ["refund_rate"],
                                 seriesColumns: ["provider"], filter: ["view": "by_charge_month", "refund_kind": "REFUND"],
                                 valueAxis: "refund rate",
                                 combine: .ratio(numerator: "refunded_transactions_count", denominator: "paid_transactions_count",
                                                 once: ["currency"]))]),
        ReportDefinition(
            name: "grace_hold_recovery", sheet: "Grace and hold",
            summary: "per month of first billing failure, provider, plan, country and currency: grace and hold entered, recovered, churned, open",
            required: true,
            charts: [ReportChart(kind: .column, title: "Grace and hold funnel by failure month (all providers)", category: "failure_month",
                                 values: ["episodes_count", "grace_entered_count", "grace_recovered_count", "hold_entered_count",
                                          "hold_recovered_count", "churned_count", "open_count"],
                                 valueAxis: "billing failures", combine: .sum)]),
        ReportDefinition(
            name: "price_change_churn", sheet: "Price-change churn",
            summary: "per price-change cohort: affected, consented, churned because of the change, baseline peers, excess churn, MRR effect",
            required: true,
            charts: [ReportChart(kind: .column, title: "Churn per price-change cohort against its baseline", category: "provider",
                                 labelColumns: ["product_id", "region", "old_price_micros", "new_price_micros", "currency", "mode"],
                                 values: ["cohort_churn_rate", "baseline_churn_rate", "excess_churn_rate"], valueAxis: "churn",
                                 categoryAxisTitle: "cohort: provider, product, region, old → new price, currency, mode")]),
        ReportDefinition(
            name: "entitlement_leakage", sheet: "Entitlement leakage",
            summary: "entitlements covering the as-of instant that the history says had ended (empty after the nightly chain)",
            required: true),
        ReportDefinition(
            name: "reconciliation", sheet: "Reconciliation",
            summary: "per provider, report period in the range (its current reconcile run) and currency: items by category with units, gross, variance, fee, tax, net; the totals; prior-period adjustments",
            required: true),
        ReportDefinition(
            name: "subscribers", sheet: "Subscribers",
            summary: "per month, provider and product: subscriptions trialing, paying, in grace, in billing retry or hold, paused, cancelled but paid through; starts, ends, net change",
            required: true,
            charts: [ReportChart(kind: .stackedColumn, title: "Subscribers by state at month end (all providers and products)",
                                 values: ["paying_count", "cancelled_paid_through_count", "trialing_count", "grace_count",
                                          "billing_retry_count", "paused_count"],
                                 valueAxis: "subscriptions", combine: .sum)],
            reuse: .monthEnd(column: "month")),
        ReportDefinition(
            name: "kpis", sheet: "KPIs",
            summary: "per month and provider (and all providers) in the reporting currency: MRR, ARR, net new MRR, ARPPU, ARPU, logo and revenue churn, NRR, quick ratio, refund and chargeback rates",
            required: true,
            charts: [ReportChart(kind: .line, title: "Churn, refund and chargeback rates (all providers)",
                                 values: ["logo_churn_rate", "revenue_churn_rate", "refund_rate", "chargeback_rate"],
                                 filter: ["provider": "ALL"], valueAxis: "rate")],
            reuse: .monthEnd(column: "month")),
        ReportDefinition(
            name: "trial_conversion", sheet: "Trial conversion",
            summary: "per trial-start month, provider, product and country: trials, converted in the trial or after a billing retry, cancelled, failed, open, conversion rate with its 95% interval, days to convert; Apple's event counts beside ours",
            required: true,
            charts: [ReportChart(kind: .stackedColumn, title: "Free trials by start month and outcome (all providers)",
                                 values: ["converted_in_trial_count", "converted_after_retry_count", "cancelled_count",
                                          "failed_count", "open_count"],
                                 filter: ["view": "cohort"], valueAxis: "trials", combine: .sum)]),
        ReportDefinition(
            name: "plan_change_mix", sheet: "Plan-change mix",
            summary: "per month, provider and change type (upgrade, downgrade, crossgrade, period change): from product and period to product and period, changes and MRR moved",
            required: true,
            charts: [ReportChart(kind: .stackedColumn, title: "Plan changes per month by type (all providers)", values: ["changes_count"],
                                 seriesColumns: ["change_type"], valueAxis: "plan changes", combine: .sum)],
            reuse: .monthEnd(column: "month")),
        ReportDefinition(
            name: "cohorts", sheet: "Cohorts",
            summary: "per start month, provider and currency, by months since start: customers retained, realised net revenue (refunds deducted), revenue retention, realised LTV to date",
            required: true,
            charts: [ReportChart(kind: .line, title: "Subscriber retention by months since start, per start month (all providers)",
                                 category: "months_since_start", values: ["subscriber_retention_rate"], seriesColumns: ["cohort_month"],
                                 valueAxis: "retained",
                                 combine: .ratio(numerator: "retained_subscribers", denominator: "cohort_subscribers",
                                                 once: ["provider", "currency"]))],
            reuse: .monthCells(column: "month", groups: ["cohort_month", "provider", "currency"])),
    ]
}
