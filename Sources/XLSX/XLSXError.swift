import CXlsxWriter

/// Why a workbook could not be built or written: what was being done, and libxlsxwriter's own message for the
/// `lxw_error` it returned (or this module's message for a misuse it caught before calling the library).
public struct XLSXError: Error, CustomStringConvertible, Equatable {
    /// The operation, e.g. `write cell B7 of sheet 'MRR'` or `close /tmp/out.xlsx`.
    public let operation: String
    /// The library's message (`lxw_strerror`) or this module's.
    public let message: String
    /// The `lxw_error` number when the library reported the failure; nil for a misuse caught here.
    public let code: UInt32?

    /// The operation and the message, one line.
    public var description: String { "\(operation): \(message)" }

    /// An error carrying libxlsxwriter's message for `error`.
    init(_ operation: String, library error: lxw_error) {
        self.operation = operation
        self.message = lxw_strerror(error).map { String(cString: $0) } ?? "libxlsxwriter error \(error.rawValue)"
        self.code = error.rawValue
    }

    /// An error caught by this module before the library was called.
    init(_ operation: String, _ message: String) {
        self.operation = operation
        self.message = message
        self.code = nil
    }

    /// Throws unless `status` is `LXW_NO_ERROR`.
    static func check(_ status: lxw_error, _ operation: @autoclosure () -> String) throws {
        if status.rawValue != LXW_NO_ERROR.rawValue { throw XLSXError(operation(), library: status) }
    }
}
