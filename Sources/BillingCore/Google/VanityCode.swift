/// `signupPromotion.vanityCode`: a multiple-use, predefined promotion code.
public struct VanityCode: Sendable, Equatable, Decodable {
    /// The promotion code as the user entered it.
    public var promotionCode: String?

    /// Creates a vanity code.
    public init(promotionCode: String? = nil) { self.promotionCode = promotionCode }
}
