import Foundation

/// Why a store amount could not be converted to exact micros.
public enum MoneyError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    /// Google `units` is not an int64 decimal string.
    case invalidUnits(String)
    /// Google `nanos` is not a whole number of micros (not divisible by 1000).
    case inexactNanos(Int32)
    /// Google `nanos` is outside ±999,999,999.
    case nanosOutOfRange(Int32)
    /// `units` and `nanos` carry opposite signs.
    case signMismatch(units: String, nanos: Int32)
    /// The amount does not fit in Int64 micros.
    case overflow(String)
    /// The currency code is not three ASCII capital letters (ISO 4217 form).
    case invalidCurrencyCode(String)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .invalidUnits(let text): return "Money units \"\(text)\" is not an int64 decimal string"
        case .inexactNanos(let nanos): return "Money nanos \(nanos) is not a whole number of micros"
        case .nanosOutOfRange(let nanos): return "Money nanos \(nanos) is outside ±999,999,999"
        case .signMismatch(let units, let nanos): return "Money units \(units) and nanos \(nanos) have opposite signs"
        case .overflow(let what): return "Money amount \(what) overflows Int64 micros"
        case .invalidCurrencyCode(let code): return "Money currency code \"\(code)\" is not three capital letters"
        }
    }

    /// Same as `description`.
    public var errorDescription: String? { description }
}
