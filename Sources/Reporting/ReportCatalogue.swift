/// Every report `build-reports` writes, in sheet order, and the FX pre-check.
///
/// `required` is true for the reports on the main branch; the ones still being written are optional (skipped with a
/// note while their file is absent) until they land, when their flag is flipped to true.
public enum ReportCatalogue {
    /// The report listing the (month, currency) pairs that lack an FX rate; run first, and any row fails the run.
    public static let fxMissing = "fx_missing"

    /// The reports, in sheet order.
    public static let standard: [ReportDefinition] = [
        ReportDefinition(
            name: "mrr", sheet: "MRR", summary: "month-end MRR, paying subscribers and ARPPU by provider, plan, currency and country",
            required: false,
            charts: [ReportChart(kind: .line, title: "MRR in the reporting currency", values: ["mrr_micros"],
                                 seriesColumns: ["provider"], filter: ["view": "reporting"], valueAxis: "MRR")]),
        ReportDefinition(
            name: "mrr_bridge", sheet: "MRR bridge", summary: "the movement bridge per month: start, new, expansion, contraction, churn, reactivation, FX, end",
            required: false,
            charts: [ReportChart(kind: .stackedColumn, title: "MRR movements",
                                 values: ["new_micros", "expansion_micros", "reactivation_micros", "contraction_micros", "churn_micros", "fx_micros"],
                                 filter: ["view": "reporting"], negated: ["contraction_micros", "churn_micros"], valueAxis: "MRR change")]),
        ReportDefinition(
            name: "mrr_movements", sheet: "MRR movements", summary: "per billing account and month: the movement the bridge sums",
            required: false),
        ReportDefinition(
            name: "price_change_churn", sheet: "Price-change churn", summary: "per price-change cohort: affected, consented, churned because of the change, baseline, excess churn",
            required: false,
            charts: [ReportChart(kind: .column, title: "Excess churn per price-change cohort", category: "cohort",
                                 values: ["excess_churn_rate"], valueAxis: "excess churn")]),
        ReportDefinition(
            name: "grace_hold_recovery", sheet: "Grace and hold", summary: "per month of first billing failure: grace and hold entered, recovered, churned, open",
            required: false,
            charts: [ReportChart(kind: .column, title: "Grace and hold funnel", category: "failure_month",
                                 values: ["entered_grace_count", "recovered_in_grace_count", "entered_hold_count",
                                          "recovered_from_hold_count", "churned_count"],
                                 filter: ["view": "reporting"], valueAxis: "subscriptions")]),
        ReportDefinition(
            name: "refunds", sheet: "Refunds", summary: "refunds by refund month and by charge month: counts, amounts, refund rate, reasons",
            required: false,
            charts: [ReportChart(kind: .line, title: "Refund rate", values: ["refund_rate"], seriesColumns: ["provider"],
                                 filter: ["view": "reporting"], valueAxis: "refund rate")]),
        ReportDefinition(
            name: "entitlement_leakage", sheet: "Entitlement leakage", summary: "revoked yet still entitled subscriptions (empty after the nightly chain)",
            required: false),
        ReportDefinition(
            name: "history_metrics", sheet: "History metrics",
            summary: "per month, provider and currency: MRR, the bridge, refunds and chargebacks, rebuilt from the history rows",
            required: true, binding: .asOfAndFirstMonth,
            charts: [ReportChart(kind: .line, title: "MRR by provider and currency", values: ["mrr_micros"],
                                 seriesColumns: ["provider", "currency"], valueAxis: "MRR (own currency)")]),
    ]
}
