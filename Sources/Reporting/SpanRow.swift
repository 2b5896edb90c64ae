/// What `SpanBuilder` reads of one history row, and the pure rules over it: the row, its kind and state kind, and the
/// hash of a subscription's span tuples.
extension SpanBuilder {
    /// What one subscription's history row says (`report_span_history`'s columns), its text and uuid fields as
    /// ranges of the subscription's byte buffer (nil: NULL).
    struct Row {
        var effective: Int64
        var rank: Int32
        var expires: Int64?
        var amount: Int64?
        var currency: Range<Int>?
        var country: Range<Int>?
        var product: Range<Int>?
        var plan: Range<Int>?
        var period: Range<Int>?
        var periodEnd: Int64?
        var factor: Int64?
        var recovered: Bool
        var kind: Kind
        var end: Int64?
    }

    /// `report_span_history.kind`.
    enum Kind { case grace, hold, paused, off, other }

    /// A state row's kind (`report_span`'s `kinds`): a charge is a trial (0) or paid, rank 3 ends, ranks 1 and 2 say
    /// their own kind.
    enum StateKind { case trial, paid, ended, grace, hold, paused, other }

    /// The kind's text told by its first byte and length: grace, hold, paused, off, other.
    static func kind(_ message: UnsafeRawBufferPointer, _ field: Range<Int>?) -> Kind {
        guard let field, let first = field.first else { return .other }
        switch (message[first], field.count) {
        case (UInt8(ascii: "g"), 5): return .grace
        case (UInt8(ascii: "h"), 4): return .hold
        case (UInt8(ascii: "p"), 6): return .paused
        case (UInt8(ascii: "o"), 3): return .off
        default: return .other
        }
    }

    /// A state row's kind as `report_span`'s `kinds` says it.
    static func stateKind(_ row: Row) -> StateKind {
        switch row.rank {
        case 0: return row.amount == 0 ? .trial : .paid
        case 3: return .ended
        default:
            switch row.kind {
            case .grace: return .grace
            case .hold: return .hold
            case .paused: return .paused
            case .off, .other: return .other
            }
        }
    }

    /// A 64-bit hash of a subscription's span tuples (stable across runs and builds: 8 bytes at a time, multiplied and
    /// rotated, the tail byte by byte, finished by a mix), for telling stored spans that differ (migration 0047).
    static func spanHash(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        let prime: UInt64 = 0x1000_0000_01B3
        var at = 0
        while at + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            hash = (hash ^ word) &* prime
            hash = hash << 29 | hash >> 35
            at += 8
        }
        while at < bytes.count {
            hash = (hash ^ UInt64(bytes[at])) &* prime
            at += 1
        }
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        return Int64(bitPattern: hash)
    }
}
