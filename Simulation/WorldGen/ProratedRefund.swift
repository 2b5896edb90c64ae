/// Which of the world's Apple refunds are partial: Apple refunds half the charge (`revocationType`
/// `REFUND_PRORATED`, `revocationPercentage` in thousandths of a percent) for one refund in two of those it can halve exactly, chosen by
/// the refund's instant and the charge's price so no random draw of the story moves. The store reports, the notification and the history
/// row all carry the partial amount.
enum ProratedRefund {
    /// `revocationPercentage` of an Apple refund at `atMs` of a charge of `chargeMicros` in `currency` (50000 = 50 %),
    /// or nil for a full refund. Only charges whose half is a whole amount in the currency's minor unit (cents; whole
    /// yen) are prorated, so the report files can state the refund exactly.
    static func applePercentage(atMs: Int64, chargeMicros: Int64, currency: String) -> Int? {
        guard atMs % 2 == 1, halfIsWhole(chargeMicros, currency: currency) else { return nil }
        return 50_000
    }

    /// Whether half of `chargeMicros` is a whole amount in `currency`'s minor unit (cents; whole yen and won).
    static func halfIsWhole(_ chargeMicros: Int64, currency: String) -> Bool {
        let unit: Int64 = currency == "JPY" || currency == "KRW" ? 1_000_000 : 10_000
        return chargeMicros % 2 == 0 && (chargeMicros / 2) % unit == 0
    }

    /// What a refund of `chargeMicros` gives back at `percentage` (truncated, as the projection computes it).
    static func amount(_ chargeMicros: Int64, percentage: Int?) -> Int64 {
        guard let percentage else { return chargeMicros }
        return chargeMicros * Int64(percentage) / 100_000
    }
}
