import CXlsxWriter
#if canImport(Glibc)
import Glibc
#endif

/// An XLSX workbook written through libxlsxwriter to `path`. Add sheets, write them, then call `close()`, which
/// fits column widths, applies pending autofilters and writes the file; a workbook dropped without `close()` writes
/// nothing. Not thread-safe: one writer at a time.
public final class Workbook {
    /// Where `close()` writes the file.
    public let path: String
    /// The options the workbook was created with.
    public let options: WorkbookOptions
    let handle: WorkbookHandle
    private var sheets: [Worksheet] = []

    /// A new, empty workbook that will be written to `path`.
    public init(path: String, options: WorkbookOptions) throws {
        guard options.created > 0 else {
            throw XLSXError("create \(path)", "the creation time must be a fixed instant after 1970-01-01 (0 would mean 'now')")
        }
        var settings = lxw_workbook_options()
        settings.constant_memory = options.constantMemory ? 1 : 0
        settings.use_zip64 = options.zip64 ? 1 : 0
        let temporary: UnsafeMutablePointer<CChar>? = options.temporaryDirectory.flatMap { strdup($0) }
        defer { free(temporary) }
        settings.tmpdir = temporary
        guard let pointer = workbook_new_opt(path, &settings) else {
            throw XLSXError("create \(path)", library: LXW_ERROR_MEMORY_MALLOC_FAILED)
        }
        self.path = path
        self.options = options
        self.handle = WorkbookHandle(pointer: pointer, path: path)
        try setProperties(options)
    }

    deinit { handle.abandon() }

    private func setProperties(_ options: WorkbookOptions) throws {
        let strings: [UnsafeMutablePointer<CChar>?] = [options.title, options.author, options.company, options.comments]
            .map { $0.flatMap { strdup(ExcelText.escaped($0)) } }
        defer { strings.forEach { free($0) } }
        var properties = lxw_doc_properties()
        properties.title = strings[0]
        properties.author = strings[1]
        properties.company = strings[2]
        properties.comments = strings[3]
        properties.created = time_t(options.created)
        try XLSXError.check(workbook_set_properties(try handle.live("set properties"), &properties), "set the properties of \(path)")
    }

    /// Adds a worksheet named `name` (at most 31 characters, none of `[]:*?/\`, unique ignoring case).
    public func addWorksheet(_ name: String) throws -> Worksheet {
        let operation = "add sheet '\(name)'"
        let workbook = try handle.live(operation)
        guard !name.utf8.contains(0) else { throw XLSXError(operation, "a sheet name cannot contain NUL") }
        try XLSXError.check(workbook_validate_sheet_name(workbook, name), operation)
        guard let sheet = workbook_add_worksheet(workbook, name) else {
            throw XLSXError(operation, library: LXW_ERROR_MEMORY_MALLOC_FAILED)
        }
        let worksheet = Worksheet(handle: handle, pointer: sheet, name: name, constantMemory: options.constantMemory)
        handle.sheetNames.append(name)
        sheets.append(worksheet)
        return worksheet
    }

    /// Finishes every sheet (fitted widths, autofilters) and writes the file. Throws with libxlsxwriter's message
    /// when the file cannot be written; the workbook is unusable afterwards either way.
    public func close() throws {
        _ = try handle.live("close \(path)")
        do {
            for sheet in sheets { try sheet.finish() }
        } catch {
            handle.abandon()
            throw error
        }
        try handle.close()
    }
}
