import StoreExports

/// The staging of Apple's Subscription and Subscription Event reports in `apple_subscription_row` and
/// `apple_subscription_event_row` (migration 0023): their `COPY` statements and each row's fields
/// (`AppleReportStaging` streams them).
enum AppleSubscriptionStaging {
    /// The staging column of each Subscription report count, in `AppleSubscriptionReportParser.countColumns` order.
    static let countColumns: [String] = [
        "active_standard_price", "active_free_trial_introductory_offer", "active_pay_up_front_introductory_offer",
        "active_pay_as_you_go_introductory_offer", "free_trial_promotional_offer", "pay_up_front_promotional_offer",
        "pay_as_you_go_promotional_offer", "marketing_opt_ins", "billing_retry", "grace_period", "free_trial_offer_code",
        "pay_up_front_offer_code", "pay_as_you_go_offer_code", "subscribers",
    ]

    /// The Subscription report's `COPY`.
    static let subscriptionCopy = """
        COPY apple_subscription_row (report_file_id, line, report_date, app_name, app_apple_id, subscription_name,
        subscription_apple_id, subscription_group_id, standard_subscription_duration, subscription_offer_name,
        promotional_offer_id, customer_price_micros, customer_currency, developer_proceeds_micros, proceeds_currency,
        preserved_pricing, proceeds_reason, client, device, state, country, \(countColumns.joined(separator: ", ")))
        FROM STDIN
        """

    /// The Subscription Event report's `COPY`.
    static let eventCopy = """
        COPY apple_subscription_event_row (report_file_id, line, event_date, event, app_name, app_apple_id,
        subscription_name, subscription_apple_id, subscription_group_id, standard_subscription_duration,
        subscription_offer_type, subscription_offer_duration, marketing_opt_in, marketing_opt_in_duration,
        preserved_pricing, proceeds_reason, subscription_offer_name, promotional_offer_id, consecutive_paid_periods,
        original_start_date, client, device, state, country, previous_subscription_name, previous_subscription_apple_id,
        days_before_canceling, cancellation_reason, days_canceled, quantity) FROM STDIN
        """

    /// A Subscription row's staging fields (after the file id).
    static func fields(_ r: AppleSubscriptionRow) -> [String?] {
        precondition(countColumns.count == AppleSubscriptionReportParser.countColumns.count)
        let counts: [String?] = AppleSubscriptionReportParser.countColumns.map { r.count($0).map { String($0) } }
        let fields: [String?] = [String(r.line), r.reportDate.description, r.appName, r.appAppleID, r.subscriptionName,
                                 r.subscriptionAppleID, r.subscriptionGroupID, r.standardSubscriptionDuration,
                                 r.subscriptionOfferName, r.promotionalOfferID, String(r.customerPriceMicros),
                                 r.customerCurrency, String(r.developerProceedsMicros), r.proceedsCurrency,
                                 r.preservedPricing, r.proceedsReason, r.client, r.device, r.state, r.country]
        return fields + counts
    }

    /// A Subscription Event row's staging fields (after the file id).
    static func fields(_ r: AppleSubscriptionEventRow) -> [String?] {
        [String(r.line), r.eventDate.description, r.event, r.appName, r.appAppleID, r.subscriptionName,
         r.subscriptionAppleID, r.subscriptionGroupID, r.standardSubscriptionDuration, r.subscriptionOfferType,
         r.subscriptionOfferDuration, r.marketingOptIn ? "t" : "f", r.marketingOptInDuration,
         r.preservedPricing ? "t" : "f", r.proceedsReason, r.subscriptionOfferName, r.promotionalOfferID,
         r.consecutivePaidPeriods.map(String.init), r.originalStartDate?.description, r.client, r.device, r.state,
         r.country, r.previousSubscriptionName, r.previousSubscriptionAppleID, r.daysBeforeCanceling.map(String.init),
         r.cancellationReason, r.daysCanceled.map(String.init), String(r.quantity)]
    }
}
