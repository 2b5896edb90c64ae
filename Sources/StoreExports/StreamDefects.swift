/// The defect bookkeeping of a report read as a stream (`AppleTabScanner`, `GoogleEarningsScanner`): every defect met
/// is held, ranked in the order a whole-file read checks them, so that the end of the stream throws the one a
/// whole-file read reports; with the checks of the file's start (UTF-16, a UTF-8 byte-order mark) and of a blank first
/// line, which a whole-file read makes the same way for every report.
struct StreamDefects {
    /// The order of the checks: of two defects the one of the lower rank is reported, of one rank the earlier.
    enum Rank: Int, Comparable {
        case encoding, structure, blank, field

        static func < (a: Rank, b: Rank) -> Bool { a.rawValue < b.rawValue }
    }

    /// The file name for errors.
    let file: String
    /// The defect to report, of those met so far.
    private var held: (error: StoreReportError, rank: Rank)?
    /// Whether a line held more than blanks.
    var sawText = false
    /// A first record made only of blanks: the header error is raised only if text follows (else: empty file).
    var blankHeader: (bytes: [UInt8], line: Int)?

    /// No defect yet, for the file named `file`.
    init(file: String) {
        self.file = file
    }

    /// The rank of the defect held, nil while there is none.
    var rank: Rank? { held?.rank }

    /// Holds `error` unless a defect reported before it is held already; an error that is not a `StoreReportError`
    /// is thrown at once.
    mutating func refuse(_ error: Error, _ rank: Rank) throws {
        guard let error = error as? StoreReportError else { throw error }
        if let held, held.rank <= rank { return }
        held = (error, rank)
    }

    /// Notes a record past its encoding check (`blank`: nothing but blanks); false when no more than its encoding is
    /// read (after a defect of the encoding, the header or the splitting, which are reported first).
    mutating func keepsReading(blank: Bool) -> Bool {
        if rank == .encoding { return false }
        if !blank { sawText = true }
        if let rank, rank <= .structure { return false }
        return true
    }

    /// Before the header is known, the record (`bytes` starting on `line`) to read as the header now: none for a blank
    /// first line, which is kept (read as the header, and refused, only if text follows), nor for blank lines after
    /// it; the kept blank line once text follows.
    mutating func headerRecord(_ bytes: UnsafeRawBufferPointer, line: Int, blank: Bool) -> (bytes: [UInt8], line: Int)? {
        if let blankHeader { return blank ? nil : blankHeader }
        if blank {
            blankHeader = (Array(bytes), line)
            return nil
        }
        return (Array(bytes), line)
    }

    /// The file's first bytes (three, or all of a shorter file) without a UTF-8 byte-order mark; nil for UTF-16 text,
    /// held as an encoding defect.
    mutating func start(_ bytes: [UInt8]) throws -> [UInt8]? {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            try refuse(StoreReportError(file: file, line: 1, column: 1,
                                        reason: "UTF-16 text (byte-order mark \(bytes[0] == 0xFF ? "FF FE" : "FE FF")); expected UTF-8"),
                       .encoding)
            sawText = true
            return nil
        }
        return bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }

    /// The checks after the last record, in a whole-file read's order: the encoding, some text, a blank first line
    /// read as the header (`header`, given its bytes and line), the defect held, a header (`hasHeader`).
    func finish(header: ([UInt8], Int) throws -> Void, hasHeader: () -> Bool) throws {
        if let held, held.rank == .encoding { throw held.error }
        guard sawText else { throw StoreReportError(file: file, line: 1, column: 1, reason: "empty file (no text)") }
        if let blankHeader { try header(blankHeader.bytes, blankHeader.line) }
        if let held { throw held.error }
        guard hasHeader() else { throw StoreReportError(file: file, line: 1, column: 1, reason: "no header row") }
    }
}
