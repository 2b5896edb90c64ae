/// A line item's `signupPromotion`: the promotion code applied at signup (only set when one was).
public struct SignupPromotion: Sendable, Equatable, Decodable {
    /// Present (as `{}`) when a single-use code was applied; Google does not reveal the code.
    public var oneTimeCode: PresenceMarker?
    /// A multiple-use, predefined code.
    public var vanityCode: VanityCode?

    /// Creates a promotion.
    public init(oneTimeCode: PresenceMarker? = nil, vanityCode: VanityCode? = nil) {
        self.oneTimeCode = oneTimeCode
        self.vanityCode = vanityCode
    }

    /// The kind of code applied, nil when neither member is present.
    public var kind: SignupPromotionKind? {
        if vanityCode != nil { return .vanityCode }
        if oneTimeCode != nil { return .oneTimeCode }
        return nil
    }
}

/// Which kind of promotion code a signup used (stored as `billing_transaction.signup_promotion_type`).
public enum SignupPromotionKind: String, Sendable, Equatable {
    case oneTimeCode = "ONE_TIME_CODE"
    case vanityCode = "VANITY_CODE"
}
