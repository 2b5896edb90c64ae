/// The billing_transaction rows that move money and so appear in the stores' reports: charges (a purchase, renewal,
/// recovery, restart or plan change with an amount) and refunds. Price-change notices carry the new price as their
/// amount but charge nothing.
public enum MoneyEvents {
    /// The event types that charge.
    public static let charges = ["PURCHASED", "RENEWED", "RECOVERED", "RESTARTED", "PRODUCT_CHANGED"]
    /// Charges and refunds.
    public static let all = charges + ["REFUNDED"]
    /// `all` as an SQL array literal, for `event_type::text = ANY(…)`.
    public static var sqlArray: String { "ARRAY[" + all.map { "'\($0)'" }.joined(separator: ",") + "]" }
    /// `charges` as an SQL array literal.
    public static var chargesSQLArray: String { "ARRAY[" + charges.map { "'\($0)'" }.joined(separator: ",") + "]" }
}
