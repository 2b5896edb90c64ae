/// A Google `Money`: `{currencyCode, units (int64 as a string), nanos}`.
public struct GoogleMoney: Sendable, Equatable, Decodable {
    public var currencyCode: String?
    /// Whole units as an int64 decimal string (a JSON number is accepted too).
    public var units: String?
    public var nanos: Int32?

    enum CodingKeys: String, CodingKey { case currencyCode, units, nanos }

    /// Creates an amount from its parts.
    public init(currencyCode: String, units: String, nanos: Int32 = 0) {
        self.currencyCode = currencyCode
        self.units = units
        self.nanos = nanos
    }

    /// Decodes, accepting `units` as a string or a number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        currencyCode = try container.decodeIfPresent(String.self, forKey: .currencyCode)
        units = try container.decodeLenientInt64IfPresent(forKey: .units).map { String($0) }
        if let rawNanos = try container.decodeLenientInt64IfPresent(forKey: .nanos) {
            guard let narrowed = Int32(exactly: rawNanos) else {
                throw DecodingError.dataCorruptedError(forKey: .nanos, in: container, debugDescription: "nanos \(rawNanos) out of range")
            }
            nanos = narrowed
        }
    }

    /// The exact amount; throws when nanos are not whole micros or the currency code is not ISO 4217 shaped;
    /// nil without a currency code.
    public func money() throws(MoneyError) -> Money? {
        guard let currencyCode else { return nil }
        guard currencyCode.utf8.count == 3, currencyCode.utf8.allSatisfy({ (65...90).contains($0) }) else {
            throw .invalidCurrencyCode(currencyCode)
        }
        return try Money(googleUnits: units, nanos: nanos, currencyCode: currencyCode)
    }
}
