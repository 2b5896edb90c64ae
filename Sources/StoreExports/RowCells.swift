import BillingCore

/// Typed access to the cells of one data row; every failure names the file, line and column.
struct RowCells {
    /// The row.
    let record: DelimitedRecord
    /// The file's columns.
    let layout: HeaderLayout
    /// The file name for errors.
    let file: String

    /// Checks the row's width against the header (trailing empty cells past the named columns are allowed
    /// when `trailingEmpty`).
    init(_ record: DelimitedRecord, _ layout: HeaderLayout, file: String, trailingEmpty: Bool = false) throws {
        self.record = record
        self.layout = layout
        self.file = file
        let count = record.fields.count
        guard trailingEmpty ? count >= layout.named : count == layout.width else {
            throw StoreReportError(file: file, line: record.line, column: min(count, layout.width) + 1,
                                   reason: "row has \(count) fields, the header has \(trailingEmpty ? layout.named : layout.width)")
        }
        if trailingEmpty, count > layout.named,
           let extra = record.fields[layout.named...].firstIndex(where: { !$0.trimmingSpaces.isEmpty }) {
            throw StoreReportError(file: file, line: record.line, column: extra + 1, reason: "value in a column without a header")
        }
    }

    /// An error at `name`'s column of this row.
    func failure(_ name: String, _ reason: String) -> StoreReportError {
        StoreReportError(file: file, line: record.line, column: (layout.positions[name] ?? 0) + 1, reason: reason)
    }

    /// The trimmed cell ("" when the file lacks the optional column or the cell is a single space).
    func text(_ name: String) -> String {
        guard let index = layout.positions[name], index < record.fields.count else { return "" }
        return record.fields[index].trimmingSpaces
    }

    /// The trimmed cell, which must not be empty.
    func required(_ name: String) throws -> String {
        let value = text(name)
        guard !value.isEmpty else { throw failure(name, "empty '\(name)'") }
        return value
    }

    /// An amount in micros; empty cells are rejected unless `emptyAs` gives a value.
    func micros(_ name: String, style: Micros.Style = .plain, emptyAs: Int64? = nil) throws -> Int64 {
        let value = text(name)
        if value.isEmpty, let emptyAs { return emptyAs }
        switch Micros.parse(Substring(value), style: style) {
        case .success(let micros): return micros
        case .failure(let problem): throw failure(name, "'\(name)': \(problem)")
        }
    }

    /// An exact decimal (exchange rates), nil when empty and `optional`.
    func decimal(_ name: String, optional: Bool = false) throws -> ExactDecimal? {
        let value = text(name)
        if value.isEmpty, optional { return nil }
        switch ExactDecimal.parse(Substring(value)) {
        case .success(let decimal): return decimal
        case .failure(let problem): throw failure(name, "'\(name)': \(problem)")
        }
    }

    /// A signed integer (units, quantities); empty cells are rejected unless `emptyAs` gives a value.
    func integer(_ name: String, style: Micros.Style = .plain, emptyAs: Int64? = nil) throws -> Int64 {
        let value = text(name)
        if value.isEmpty, let emptyAs { return emptyAs }
        guard case .success(let decimal) = ExactDecimal.parse(Substring(value), style: style), decimal.scale == 0 else {
            throw failure(name, "'\(name)': '\(Redaction.excerpt(value))' is not a whole number")
        }
        return decimal.unscaled
    }

    /// A count written as a decimal (`12.00`, `3`): its whole value; a fraction that is not zero is refused.
    func wholeDecimal(_ name: String) throws -> Int64 {
        let value = text(name)
        guard case .success(let decimal) = ExactDecimal.parse(Substring(value)), let whole = decimal.wholeValue else {
            throw failure(name, "'\(name)': '\(Redaction.excerpt(value))' is not a whole number of units")
        }
        return whole
    }

    /// A date in `format`; nil when empty and `optional`.
    func date(_ name: String, _ format: CalendarDateFormat, optional: Bool = false) throws -> CalendarDate? {
        let value = text(name)
        if value.isEmpty, optional { return nil }
        guard let date = format.parse(Substring(value)) else { throw failure(name, "'\(name)': '\(Redaction.excerpt(value))' is not a date (\(format.pattern))") }
        return date
    }

    /// A date that must be present.
    func requiredDate(_ name: String, _ format: CalendarDateFormat) throws -> CalendarDate {
        guard let date = try date(name, format) else { throw failure(name, "empty '\(name)'") }
        return date
    }
}

extension CalendarDateFormat {
    /// The spelling, for messages.
    var pattern: String {
        switch self {
        case .monthDayYear: return "MM/DD/YYYY"
        case .iso: return "YYYY-MM-DD"
        case .monthNameDayYear: return "Mon D, YYYY"
        }
    }
}
