import CXlsxWriter

/// The one owner of the C `lxw_workbook`: its formats, its sheet names, and freeing it exactly once (by
/// `workbook_close` on success, `lxw_workbook_free` when abandoned). Worksheets keep it alive, never the reverse.
final class WorkbookHandle {
    /// The C workbook; nil once closed or abandoned.
    private(set) var pointer: UnsafeMutablePointer<lxw_workbook>?
    /// The output path, for messages.
    let path: String
    /// Names of the sheets added so far, in order.
    var sheetNames: [String] = []
    private var formats: [CellStyle: UnsafeMutablePointer<lxw_format>] = [:]

    init(pointer: UnsafeMutablePointer<lxw_workbook>, path: String) {
        self.pointer = pointer
        self.path = path
    }

    deinit { abandon() }

    /// The live workbook, or an error naming `operation` when it is already closed.
    func live(_ operation: @autoclosure () -> String) throws -> UnsafeMutablePointer<lxw_workbook> {
        guard let pointer else { throw XLSXError(operation(), "the workbook \(path) is already closed") }
        return pointer
    }

    /// The library format for `style` (nil for the General format), created on first use.
    func format(_ style: CellStyle) throws -> UnsafeMutablePointer<lxw_format>? {
        if style == .plain { return nil }
        if let known = formats[style] { return known }
        let workbook = try live("add a cell format")
        guard let format = workbook_add_format(workbook) else {
            throw XLSXError("add a cell format", library: LXW_ERROR_MEMORY_MALLOC_FAILED)
        }
        switch style {
        case .money(let places), .percent(let places):
            guard (0...6).contains(places) else { throw XLSXError("add a cell format", "decimal places must be 0 through 6, not \(places)") }
        default: break
        }
        if style == .header { format_set_bold(format) }
        if let code = style.numberFormat { format_set_num_format(format, code) }
        formats[style] = format
        return format
    }

    /// Writes the file and frees the workbook; afterwards every use throws.
    func close() throws {
        let workbook = try live("close \(path)")
        pointer = nil
        try XLSXError.check(workbook_close(workbook), "close \(path)")
    }

    /// Frees the workbook without writing the file (a no-op once closed).
    func abandon() {
        if let pointer { lxw_workbook_free(pointer) }
        pointer = nil
    }
}
