import Archive
import Foundation
import Postgres
@testable import WorldGen

/// A minimal test-side reader of the generated report files: by header name, exact decimals.
enum ReportFileReader {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// A table: header names and rows of cells, addressed by column name.
    struct Table {
        var header: [String]
        var rows: [[String]]

        func column(_ name: String) throws -> Int {
            guard let index = header.firstIndex(of: name) else { throw Failure(description: "no column `\(name)` in \(header)") }
            return index
        }

        func values(_ name: String) throws -> [String] {
            let index = try column(name)
            return rows.map { $0[index] }
        }

        func row(_ position: Int) -> [String: String] {
            Dictionary(uniqueKeysWithValues: zip(header, rows[position]))
        }
    }

    /// An Apple financial report: data rows, footer totals and (ZZ only) the per-country summary.
    struct AppleFinancial {
        var table: Table
        var totalRows: Int
        var totalAmount: Int64
        var totalUnits: Int64
        var summary: [[String]]
    }

    static func text(_ bytes: [UInt8]) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Failure(description: "not UTF-8") }
        return text
    }

    /// Parses an Apple financial report; every row must have exactly the header's column count.
    static func appleFinancial(_ bytes: [UInt8]) throws -> AppleFinancial {
        var lines = try text(bytes).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.last == "" else { throw Failure(description: "no final LF") }
        lines.removeLast()
        let header = lines[0].components(separatedBy: "\t")
        var rows: [[String]] = []
        var position = 1
        while position < lines.count, !lines[position].hasPrefix("Total_Rows\t") {
            let cells = lines[position].components(separatedBy: "\t")
            guard cells.count == header.count else { throw Failure(description: "line \(position + 1): \(cells.count) cells") }
            rows.append(cells)
            position += 1
        }
        func footer(_ name: String, _ offset: Int) throws -> String {
            let cells = lines[position + offset].components(separatedBy: "\t")
            guard cells.count == 2, cells[0] == name else { throw Failure(description: "expected \(name), got \(lines[position + offset])") }
            return cells[1]
        }
        guard position + 2 < lines.count else { throw Failure(description: "missing footer") }
        let result = AppleFinancial(table: Table(header: header, rows: rows), totalRows: Int(try footer("Total_Rows", 0)) ?? -1,
                                    totalAmount: try Micros.parse(try footer("Total_Amount", 1)),
                                    totalUnits: Int64(try footer("Total_Units", 2)) ?? -1,
                                    summary: lines[(position + 3)...].filter { !$0.isEmpty }.map { $0.components(separatedBy: "\t") })
        return result
    }

    /// Parses a tab-separated report with one header row (the subscriber report); a cell holding one space reads as blank.
    static func tabSeparated(_ bytes: [UInt8]) throws -> Table {
        let lines = try text(bytes).split(separator: "\n").map { $0.components(separatedBy: "\t").map { $0 == " " ? "" : $0 } }
        for (number, line) in lines.enumerated() where line.count != lines[0].count {
            throw Failure(description: "line \(number + 1): \(line.count) cells")
        }
        return Table(header: lines[0], rows: Array(lines.dropFirst()))
    }

    /// Parses RFC 4180 CSV (quoted fields, doubled quotes, LF line ends).
    static func csv(_ bytes: [UInt8]) throws -> Table {
        var records: [[String]] = [], record: [String] = [], field = "", quoted = false
        var characters = try text(bytes).makeIterator()
        var pending: Character?
        while let character = pending ?? characters.next() {
            pending = nil
            if quoted {
                if character == "\"" {
                    let next = characters.next()
                    if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
                } else { field.append(character) }
            } else if character == "\"" { quoted = true
            } else if character == "," { record.append(field); field = ""
            } else if character == "\n" { record.append(field); records.append(record); record = []; field = ""
            } else { field.append(character) }
        }
        guard record.isEmpty, field.isEmpty, !quoted else { throw Failure(description: "unterminated last line") }
        for (number, line) in records.enumerated() where line.count != records[0].count {
            throw Failure(description: "record \(number + 1): \(line.count) fields")
        }
        return Table(header: records[0], rows: Array(records.dropFirst()))
    }

    /// The single CSV inside a zip, with its entry name.
    static func zippedCSV(_ bytes: [UInt8]) throws -> (String, Table) {
        let entries = try ZipArchive.entries(bytes)
        guard entries.count == 1 else { throw Failure(description: "\(entries.count) entries") }
        return (entries[0].0, try csv(entries[0].1))
    }
}
