import Archive
import Foundation

/// Reads an XLSX file back as the zip it is (libarchive) with just enough XML scanning for the tests: the sheet
/// names in order, each sheet's cells (inline strings, as the constant-memory writer stores them, and numbers), the
/// chart parts and the ranges their series reference.
struct XLSXReadBack {
    /// A cell as stored: text or the number's literal.
    enum Value: Equatable { case text(String), number(String) }

    let parts: [String: String]

    init(path: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var parts: [String: String] = [:]
        for (name, content) in try ZipArchive.entries(bytes) { parts[name] = String(decoding: content, as: UTF8.self) }
        self.parts = parts
    }

    /// Sheet names in tab order (xl/workbook.xml).
    var sheetNames: [String] {
        matches(#"<sheet name="([^"]*)""#, in: parts["xl/workbook.xml"] ?? "").map { Self.unescape($0[0]) }
    }

    /// The cells of the `index`-th sheet (1-based part number), by row (1-based) then column (0-based).
    func cells(sheet index: Int) -> [Int: [Int: Value]] {
        var rows: [Int: [Int: Value]] = [:]
        let xml = parts["xl/worksheets/sheet\(index).xml"] ?? ""
        for match in matches(#"<c r="([A-Z]+)([0-9]+)"([^>]*)>(.*?)</c>"#, in: xml) {
            let column = match[0].utf8.reduce(0) { $0 * 26 + Int($1) - 64 } - 1
            let row = Int(match[1]) ?? 0
            let body = match[3]
            if match[2].contains("t=\"inlineStr\"") {
                let text = matches(#"<t[^>]*>(.*?)</t>"#, in: body).first?[0] ?? ""
                rows[row, default: [:]][column] = .text(Self.unescape(text))
            } else if let number = matches(#"<v>(.*?)</v>"#, in: body).first?[0] {
                rows[row, default: [:]][column] = .number(number)
            }
        }
        return rows
    }

    /// Chart part names (xl/charts/chartN.xml), sorted.
    var charts: [String] { parts.keys.filter { $0.hasPrefix("xl/charts/chart") }.sorted() }

    /// The `<c:f>` formulas (ranges) a chart part references, in order.
    func references(_ chart: String) -> [String] {
        matches(#"<c:f>(.*?)</c:f>"#, in: parts[chart] ?? "").map { Self.unescape($0[0]) }
    }

    func matches(_ pattern: String, in text: String) -> [[String]] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else { return [] }
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
            (1..<match.numberOfRanges).map { match.range(at: $0).location == NSNotFound ? "" : ns.substring(with: match.range(at: $0)) }
        }
    }

    /// `text` as XML character data.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// Parses RFC 4180 CSV (CRLF records, quoted fields with doubled quotes) into records; nil for an empty field.
enum CSVReadBack {
    static func records(_ bytes: [UInt8]) -> [[String?]] {
        var records: [[String?]] = [], record: [String?] = [], field: [UInt8] = []
        var quoted = false, wasQuoted = false, index = 0
        func endField() { record.append(field.isEmpty && !wasQuoted ? nil : String(decoding: field, as: UTF8.self)); field = []; wasQuoted = false }
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == 0x22 {
                    if index + 1 < bytes.count, bytes[index + 1] == 0x22 { field.append(0x22); index += 1 } else { quoted = false }
                } else { field.append(byte) }
            } else if byte == 0x22 { quoted = true; wasQuoted = true }
            else if byte == 0x2C { endField() }
            else if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { endField(); records.append(record); record = []; index += 1 }
            else { field.append(byte) }
            index += 1
        }
        return records
    }
}
