import Archive
import Foundation

/// A written .xlsx read back as the zip it is (libarchive through `ZipArchive`), with just enough SpreadsheetML
/// reading for the tests: sheet names, a sheet's cells by A1 name, shared strings, raw parts.
struct WorkbookReader {
    let bytes: [UInt8]
    let parts: [String: String]
    let order: [String]

    init(path: String) throws {
        bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let entries = try ZipArchive.entries(bytes)
        order = entries.map(\.0)
        parts = Dictionary(entries.map { ($0.0, String(decoding: $0.1, as: UTF8.self)) }, uniquingKeysWith: { a, _ in a })
    }

    /// The sheet names of xl/workbook.xml, in order (XML-decoded).
    func sheetNames() throws -> [String] {
        let xml = parts["xl/workbook.xml"] ?? ""
        return try xml.matches(of: Regex(#"<sheet name="([^"]*)""#)).map { Self.decode(String($0.output[1].substring ?? "")) }
    }

    /// The shared strings table, decoded.
    func sharedStrings() throws -> [String] {
        let xml = parts["xl/sharedStrings.xml"] ?? ""
        return try xml.matches(of: Regex(#"(?s)<si><t[^>]*>(.*?)</t></si>"#)).map { Self.decode(String($0.output[1].substring ?? "")) }
    }

    /// Cells of sheet number `index` (1-based, xl/worksheets/sheetN.xml) by A1 name: shared and inline strings
    /// decoded to their text, numbers as the `<v>` text; plus each cell's style index.
    func cells(sheet index: Int) throws -> [String: (value: String, style: Int)] {
        let xml = parts["xl/worksheets/sheet\(index).xml"] ?? ""
        let strings = try sharedStrings()
        var result: [String: (value: String, style: Int)] = [:]
        for match in try xml.matches(of: Regex(#"(?s)<c r="([A-Z]+[0-9]+)"([^>]*?)(?:/>|>(.*?)</c>)"#)) {
            let name = String(match.output[1].substring ?? "")
            let attributes = String(match.output[2].substring ?? "")
            let body = String(match.output[3].substring ?? "")
            let style = try attributes.firstMatch(of: Regex(#"s="([0-9]+)""#)).flatMap { Int($0.output[1].substring ?? "") } ?? 0
            let value: String
            if attributes.contains(#"t="s""#) {
                let slot = try body.firstMatch(of: Regex(#"<v>([0-9]+)</v>"#)).flatMap { Int($0.output[1].substring ?? "") } ?? -1
                value = strings.indices.contains(slot) ? strings[slot] : "<missing shared string \(slot)>"
            } else if attributes.contains(#"t="inlineStr""#) {
                value = try body.firstMatch(of: Regex(#"(?s)<t[^>]*>(.*?)</t>"#)).map { Self.decode(String($0.output[1].substring ?? "")) } ?? ""
            } else {
                value = try body.firstMatch(of: Regex(#"<v>(.*?)</v>"#)).map { String($0.output[1].substring ?? "") } ?? ""
            }
            result[name] = (value, style)
        }
        return result
    }

    /// XML character references and entities, then SpreadsheetML's `_xHHHH_` escapes (ST_Xstring), undone.
    static func decode(_ text: String) -> String {
        var xml = text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
        xml = xml.replacingOccurrences(of: "&amp;", with: "&")
        let scalars = Array(xml.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            if scalars[i] == "_", i + 6 < scalars.count, scalars[i + 1] == "x", scalars[i + 6] == "_",
               let code = UInt32(String(String.UnicodeScalarView(scalars[(i + 2)...(i + 5)])), radix: 16), let scalar = Unicode.Scalar(code) {
                out.append(scalar)
                i += 7
            } else {
                out.append(scalars[i])
                i += 1
            }
        }
        return String(out)
    }

    /// The DOS modification (time, date) of every entry, from the zip's central directory (the end record is found
    /// from the back; offsets per PKWARE APPNOTE 4.3.12 and 4.3.16).
    func zipTimestamps() -> [(time: UInt16, date: UInt16)] {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard var end = bytes.count >= 22 ? bytes.count - 22 : nil else { return [] }
        while end > 0 && u32(end) != 0x0605_4B50 { end -= 1 }
        var offset = u32(end + 16)
        var result: [(time: UInt16, date: UInt16)] = []
        for _ in 0..<u16(end + 10) where offset + 46 <= bytes.count && u32(offset) == 0x0201_4B50 {
            result.append((UInt16(u16(offset + 12)), UInt16(u16(offset + 14))))
            offset += 46 + u16(offset + 28) + u16(offset + 30) + u16(offset + 32)
        }
        return result
    }
}

/// A fresh temporary directory for one test.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("xlsx-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
