#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes a cell last held and what they were read as: a row that repeats them is not read again (an order's
/// rows repeat their date, time and exchange rate; its product, country and currency, numbered by the run folder).
public struct CellMemo<Value> {
    private var held: [UInt8] = []
    private var valid = false
    /// What the remembered bytes were read as.
    public private(set) var value: Value

    /// Nothing remembered yet; `value` until then.
    public init(_ value: Value) {
        self.value = value
    }

    /// Whether the bytes at `range` are the ones remembered.
    public func holds(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        guard valid, held.count == range.count else { return false }
        guard let source = bytes.baseAddress, !range.isEmpty else { return true }
        return held.withUnsafeBytes { held in
            guard let start = held.baseAddress else { return false }
            return memcmp(start, source + range.lowerBound, range.count) == 0
        }
    }

    /// Remembers the bytes at `range` as `value`.
    public mutating func remember(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, as value: Value) {
        held.removeAll(keepingCapacity: true)
        held.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
        self.value = value
        valid = true
    }

    /// Forgets what was remembered.
    public mutating func forget() { valid = false }
}

extension CellMemo where Value == Void {
    /// Whether the bytes at `range` pass `isValid`, asked only when they differ from the last ones that passed.
    mutating func check(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>,
                        _ isValid: (UnsafeRawBufferPointer, Range<Int>) -> Bool) -> Bool {
        if holds(bytes, range) { return true }
        guard isValid(bytes, range) else { return false }
        remember(bytes, range, as: ())
        return true
    }
}
