import SeededRandom

/// Which Apple subscriptions start on an offer code instead of an introductory free trial: a one-week free period
/// redeemed with a code (`offerType` 3, `offerDiscountType` FREE_TRIAL, `offerIdentifier` the offer's reference),
/// which the projection does not count as a free trial. One trial start in `every`, chosen by the story's index and
/// the seed so no random draw of the story moves; the story itself (its free week, then the paid periods) is the same.
/// The store reports carry the redemption as a Financial Report `S` row with Promo Code `CR` and 0.00 amounts, and
/// the Subscriber report names the offer.
enum OfferCodeRedemption {
    /// One Apple trial start in `every` is an offer-code redemption.
    static let every: UInt64 = 4
    /// The offer's reference name (`offerIdentifier`; the Subscriber report's `Subscription Offer Name`).
    static let offerIdentifier = "free-week-code"

    /// Whether the Apple story `index` of the world of `seed`, if it starts with a free week, starts on an offer code.
    static func redeems(storyIndex index: Int, seed: UInt64) -> Bool {
        SplitMix64.hash(seed ^ 0x4F46_4645_5243_4F44 ^ UInt64(index)) % every == 1
    }
}
