extension GoogleMonthStream {
    /// The small fields of one report-side row, packed by the server into one `int8` column of `reportStatement`:
    /// bits 0–31 the charge count (an `int4`'s bits), 32–33 the refund type (0 none, 1 `Full`, 2 `Partial`, 3 any other
    /// text), 34–35 the side, 36–37 the period's position, 38 the kind (0 a staged earnings fact, 1 an estimated-sales
    /// row); the bits above are zero.
    struct PackedFields {
        var isFact: Bool
        var period: Int
        var side: Int
        var charges: Int32
        var refundType: StaticString?

        /// The SQL expression packing the given expressions (`side` 0 or 1, `refundType` a text or NULL, `charges` an
        /// integer). PostgreSQL gives `<<` and `|` one precedence, left to right: every shift is parenthesised.
        static func sql(kind: String, period: Int, side: String, refundType: String, charges: String) -> String {
            "((\(kind))::int8 << 38) | (\(period)::int8 << 36) | ((\(side))::int8 << 34)"
                + " | ((CASE WHEN (\(refundType)) IS NULL THEN 0 WHEN (\(refundType)) = 'Full' THEN 1"
                + " WHEN (\(refundType)) = 'Partial' THEN 2 ELSE 3 END)::int8 << 32)"
                + " | ((\(charges))::int8 & 4294967295)"
        }

        /// The fields of `packed`; nil when it is not of `sql`'s form (a kind, period, side or refund type out of range).
        init?(_ packed: Int64) {
            let bits = UInt64(bitPattern: packed)
            let kind = bits >> 38, period = Int((bits >> 36) & 3), side = Int((bits >> 34) & 3)
            guard kind <= 1, period < 3, side <= 1 else { return nil }
            switch (bits >> 32) & 3 {
            case 0: refundType = nil
            case 1: refundType = "Full"
            case 2: refundType = "Partial"
            default: return nil
            }
            isFact = kind == 0
            self.period = period
            self.side = side
            charges = Int32(truncatingIfNeeded: bits & 0xFFFF_FFFF)
        }

        /// A refund type's UTF-8 bytes (static: valid for the program's life).
        static func bytes(_ text: StaticString) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        }
    }
}
