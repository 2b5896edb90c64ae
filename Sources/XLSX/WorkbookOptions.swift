/// How a workbook is written: memory mode and the document properties. `created` is required so that the same
/// inputs give a byte-identical file (libxlsxwriter stamps every zip entry 1980-01-01 00:00 itself; the only clock
/// it reads is the creation time in docProps/core.xml, used when `created` is 0).
public struct WorkbookOptions: Sendable {
    /// The document creation time, seconds since 1970-01-01 UTC (positive); reports pass their as-of instant.
    public var created: Int64
    /// Stream each sheet's rows to a temporary file as they are written (rows strictly in order; text is stored
    /// inline rather than in the shared-strings table; memory stays flat however many rows a sheet has).
    public var constantMemory: Bool
    /// Directory for libxlsxwriter's temporary files; nil for the system's.
    public var temporaryDirectory: String?
    /// Allow ZIP64 extensions (needed only for parts over 4 GiB).
    public var zip64: Bool
    /// Document title (docProps/core.xml).
    public var title: String?
    /// Document author.
    public var author: String?
    /// Document company (docProps/app.xml).
    public var company: String?
    /// Document comments.
    public var comments: String?

    /// Options with a fixed creation time; everything else off or empty unless given.
    public init(created: Int64, constantMemory: Bool = false, temporaryDirectory: String? = nil, zip64: Bool = false,
                title: String? = nil, author: String? = nil, company: String? = nil, comments: String? = nil) {
        self.created = created
        self.constantMemory = constantMemory
        self.temporaryDirectory = temporaryDirectory
        self.zip64 = zip64
        self.title = title
        self.author = author
        self.company = company
        self.comments = comments
    }
}
