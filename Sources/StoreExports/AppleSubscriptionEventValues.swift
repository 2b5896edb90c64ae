/// The values the Subscription Event report's coded columns may hold. A value outside these lists is refused with its
/// position (docs/STORE_REPORTS.md has the same tables): Apple adds events from time to time, and a new one must be
/// looked up in Apple's "Subscription events" reference and added here and there before its files import.
public enum AppleSubscriptionEventValues {
    /// `Event`: Apple's "Subscription events" reference (activations, cancellations, conversions, grades, reactivations,
    /// renewals, billing retry), the values real files and connector data show, and the older
    /// spellings (`… Introductory Price`, `… Free Trial`) earlier files use. Compared without regard to case (Apple's
    /// reference writes `Crossgrade From Introductory Offer`, files `Crossgrade from Introductory Offer`).
    public static let events: [String] = [
        // Activations
        "Subscribe", "Start Introductory Offer", "Start Introductory Price", "Start Free Trial", "Opt-In",
        "Start Offer Code", "Start Promotional Offer",
        // Cancellations
        "Cancel", "Canceled from Billing Retry", "Canceled from Billing Grace Period", "Canceled After Renewal Extension",
        // Conversion to standard price
        "Paid Subscription from Introductory Offer", "Paid Subscription from Introductory Price",
        "Paid Subscription from Free Trial", "Paid Subscription from Win-Back Offer with Upgrade",
        // Crossgrades, upgrades, downgrades
        "Crossgrade", "Crossgrade from Billing Retry", "Crossgrade from Free Trial", "Crossgrade from Introductory Price",
        "Crossgrade from Introductory Offer", "Downgrade", "Downgrade from Billing Retry", "Downgrade from Free Trial",
        "Downgrade from Introductory Price", "Downgrade from Introductory Offer", "Downgrade from Grace Period",
        "Upgrade", "Upgrade from Billing Retry", "Upgrade from Free Trial", "Upgrade from Introductory Price",
        "Upgrade from Introductory Offer",
        // Reactivations
        "Reactivate", "Reactivate with Crossgrade", "Reactivate with Downgrade", "Reactivate with Upgrade",
        "Reactivate with Upgrade to Introductory Price", "Reactivate with Upgrade to Introductory Offer",
        "Reactivate with Downgrade to Introductory Offer", "Reactivate with Crossgrade to Introductory Offer",
        "Reactivation to Promotional Offer",
        // Renewals and billing retry
        "Renew", "Renewal from Billing Retry", "Billing Retry from Paid Subscription", "Billing Retry from Introductory Offer",
        "Billing Retry from Introductory Price",
        // Offers to offers
        "Introductory Price from Paid Subscription", "Introductory Offer from Introductory Offer",
        "Introductory Price from Introductory Price", "Free Trial from Free Trial", "Introductory Price from Billing Retry",
        "Introductory Price Crossgrade from Billing Retry", "Promotional Offer from Win-Back Offer",
        // Refunds
        "Refund",
    ]

    /// `Cancellation Reason`: Apple's "Cancellation reasons" reference (today's and the older spellings).
    public static let cancellationReasons: [String] = [
        "Billing Issue", "Price Increase", "Price Increase Notice", "Price Increase Consent", "Canceled", "Removed From Sale",
        "Other",
    ]

    /// `Subscription Offer Type` (Apple: "Pay Up Front, Pay As You Go, or Free Trial").
    public static let offerTypes: [String] = ["Free Trial", "Pay As You Go", "Pay Up Front"]
}
