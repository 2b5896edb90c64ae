/// Text prepared for a C string in a cell: spreadsheet XML stores characters outside XML 1.0 as `_xHHHH_`, so a
/// literal `_xHHHH_` in the text is written as `_x005F_xHHHH_` (an escaped underscore) and NUL, which a C string
/// cannot carry, as `_x0000_`; libxlsxwriter escapes the other control characters and `<>&` itself.
enum ExcelText {
    /// `text` unchanged when it needs no escaping (the common case, checked without copying), else escaped.
    static func escaped(_ text: String) -> String {
        var needs = false
        var previousUnderscore = false
        for byte in text.utf8 {
            if byte == 0 || (previousUnderscore && (byte == UInt8(ascii: "x") || byte == UInt8(ascii: "X"))) {
                needs = true
                break
            }
            previousUnderscore = byte == UInt8(ascii: "_")
        }
        return needs ? escapeSlow(text) : text
    }

    /// The escaping itself, over unicode scalars.
    static func escapeSlow(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\0" {
                result.append(contentsOf: "_x0000_".unicodeScalars)
            } else if scalar == "_", looksEscaped(scalars, from: index) {
                result.append(contentsOf: "_x005F_".unicodeScalars)
            } else {
                result.append(scalar)
            }
            index += 1
        }
        return String(result)
    }

    /// Whether `_xHHHH_` (x in either case, H a hex digit) starts at `index`.
    static func looksEscaped(_ scalars: [Unicode.Scalar], from index: Int) -> Bool {
        guard index + 6 < scalars.count, scalars[index + 1] == "x" || scalars[index + 1] == "X", scalars[index + 6] == "_" else {
            return false
        }
        return scalars[(index + 2)...(index + 5)].allSatisfy { $0.properties.isASCIIHexDigit }
    }
}
