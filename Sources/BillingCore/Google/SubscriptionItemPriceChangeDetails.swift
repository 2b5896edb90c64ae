/// `autoRenewingPlan.priceChangeDetails`: the last price change of a line item since signup.
public struct SubscriptionItemPriceChangeDetails: Sendable, Equatable, Decodable {
    public var newPrice: GoogleMoney?
    /// Raw `priceChangeMode`; see `priceChangeModeValue`.
    public var rawPriceChangeMode: String?
    /// Raw `priceChangeState`; see `priceChangeStateValue`.
    public var rawPriceChangeState: String?
    public var expectedNewPriceChargeTime: RFC3339Timestamp?

    enum CodingKeys: String, CodingKey {
        case newPrice, rawPriceChangeMode = "priceChangeMode", rawPriceChangeState = "priceChangeState"
        case expectedNewPriceChargeTime
    }

    /// The typed mode, nil when absent or unknown.
    public var priceChangeModeValue: GooglePriceChangeMode? { rawPriceChangeMode.flatMap(GooglePriceChangeMode.init(rawValue:)) }
    /// The typed state, nil when absent or unknown.
    public var priceChangeStateValue: GooglePriceChangeState? { rawPriceChangeState.flatMap(GooglePriceChangeState.init(rawValue:)) }
}
