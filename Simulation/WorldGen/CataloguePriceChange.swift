/// A price change of one plan in one market: announced 30 days before `effectiveAtMs`.
public struct CataloguePriceChange: Sendable, Hashable {
    public let planCode: String
    public let currency: String
    public let oldMicros: Int64
    public let newMicros: Int64
    /// New purchases pay the new price from this instant; renewals from this instant on after notice.
    public let effectiveAtMs: Int64
    /// Google mode: PRICE_INCREASE (opt-in), OPT_OUT_PRICE_INCREASE or PRICE_DECREASE. Apple: increases need consent.
    public let googleMode: String

    /// True for an increase.
    public var isIncrease: Bool { newMicros > oldMicros }
}
