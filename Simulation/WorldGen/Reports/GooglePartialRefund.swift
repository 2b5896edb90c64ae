import SeededRandom

/// Which of the world's Google refunds the store made for part of the charge only. Google's earnings files carry
/// such a refund as `Charge refund` / `Google fee refund` / `Tax refund` rows of the part with `Refund Type`
/// `Partial`; the pipeline learns Google refunds from voided purchases, which carry no amount, so the database
/// records the whole charge refunded. One refund in `every` (by order ID hash, so no random draw of the world moves)
/// gives back half the charge, rounded down to a whole minor unit (whole cents; whole yen and won).
enum GooglePartialRefund {
    /// One refund in `every` is partial.
    static let every: UInt64 = 25

    /// Whether the store refunded order `orderId` of the world of `seed` partially (when it refunded it at all).
    static func isPartial(orderId: String, seed: UInt64) -> Bool {
        var hash: UInt64 = 0x5041_5254_4941_4C00 ^ seed
        for byte in orderId.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return SplitMix64.hash(hash) % every == 3
    }

    /// The part refunded of a charge of `chargeMicros` in `currency`: its half, rounded down to the minor unit.
    static func amount(_ chargeMicros: Int64, currency: String) -> Int64 {
        let unit: Int64 = ReportProducts.zeroDecimalCurrencies.contains(currency) ? 1_000_000 : 10_000
        return chargeMicros / 2 / unit * unit
    }
}
