import BillingCore

/// What Apple's Sales and Trends subscription reports share beside their reading (`AppleTabScanner`): the report day
/// their file names carry, and the cell readers of their counts, values and flags.
enum AppleTabReport {
    /// The report day a Sales and Trends file name carries (`Subscription_<vendor>_<YYYYMMDD>[_V1_3][.txt][.gz]`): the
    /// last `_`-separated part of eight digits that is a date, or nil.
    static func reportDate(fileName: String) -> CalendarDate? {
        let base = fileName.split(separator: "/").last ?? ""
        let stem = base.split(separator: ".").first ?? ""
        for part in stem.split(separator: "_").reversed() where part.count == 8 && part.allSatisfy(\.isNumber) {
            let digits = part.compactMap(\.wholeNumberValue)
            guard digits.count == 8 else { continue }
            let year = digits[0..<4].reduce(0) { $0 * 10 + $1 }
            let month = digits[4] * 10 + digits[5], day = digits[6] * 10 + digits[7]
            return CalendarDate(year: year, month: month, day: day)
        }
        return nil
    }
}

extension RowCells {
    /// A count written as a whole number (`12`, or `12.00`); nil when the cell is blank and `optional`, or when the file
    /// lacks the (optional) column. A fraction that is not zero and a negative count are refused.
    func count(_ name: String, optional: Bool = false) throws -> Int64? {
        guard layout.has(name) else { return nil }
        let value = text(name)
        if value.isEmpty {
            if optional { return nil }
            throw failure(name, "empty '\(name)'")
        }
        guard case .success(let decimal) = ExactDecimal.parse(Substring(value)), let whole = decimal.wholeValue, whole >= 0 else {
            throw failure(name, "'\(name)': '\(Redaction.excerpt(value))' is not a whole number of at least 0")
        }
        return whole
    }

    /// A cell that must be one of `accepted` (compared without regard to case) or blank; returns it as written.
    func oneOf(_ name: String, _ accepted: [String], what: String) throws -> String {
        let value = text(name)
        guard value.isEmpty || accepted.contains(where: { $0.lowercased() == value.lowercased() }) else {
            throw failure(name, "unknown \(what) '\(Redaction.excerpt(value))' in '\(name)', expected one of "
                          + accepted.joined(separator: ", ") + " or blank (docs/STORE_REPORTS.md lists the accepted values)")
        }
        return value
    }

    /// A `Yes` / blank flag.
    func yesOrBlank(_ name: String) throws -> Bool {
        let value = text(name)
        guard value.isEmpty || value == "Yes" else {
            throw failure(name, "'\(name)' is '\(Redaction.excerpt(value))', expected Yes or blank")
        }
        return value == "Yes"
    }
}
