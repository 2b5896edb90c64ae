/// The billing_transaction rows that move money and so appear in the stores' reports: charges (a purchase, renewal,
/// recovery, restart or plan change with an amount) and refunds. Price-change notices carry the new price as their
/// amount but charge nothing.
public enum MoneyEvents {
    /// The event types that charge.
    public static let charges = ["PURCHASED", "RENEWED", "RECOVERED", "RESTARTED", "PRODUCT_CHANGED"]
    /// Charges and refunds.
    public static let all = charges + ["REFUNDED"]
    /// `all` as an SQL array of the column's own type, for `event_type = ANY(…)` (compared as the enum, not as text,
    /// the condition can use the index on provider, event type and instant).
    public static var sqlArray: String { "'{" + all.joined(separator: ",") + "}'::billing_event_type[]" }
    /// `charges` as an SQL array of the column's own type.
    public static var chargesSQLArray: String { "'{" + charges.joined(separator: ",") + "}'::billing_event_type[]" }
}
