import Foundation
import Postgres

/// Writes log lines to stderr: readable text on a terminal, one JSON object per line otherwise.
public struct JobLogger: Sendable {
    /// Severity of a log line.
    public enum Level: String, Sendable { case debug, info, warning, error }

    public let job: String
    public let format: LogFormat
    private let sink: @Sendable (String) -> Void

    /// A logger for `job` writing to `sink` (stderr by default).
    public init(job: String, format: LogFormat, sink: @escaping @Sendable (String) -> Void = JobLogger.standardError) {
        self.job = job
        self.format = format
        self.sink = sink
    }

    /// Writes a line to stderr.
    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Logs a message with structured fields. Mask identifiers with BillingCore's `Redaction.mask` before passing them.
    public func log(_ level: Level, _ message: String, _ fields: [String: String] = [:], at instant: Date = Date()) {
        let time = PostgresTimestamp.iso8601(instant)
        switch format {
        case .text:
            let extra = fields.keys.sorted().map { "\($0)=\(fields[$0] ?? "")" }.joined(separator: " ")
            sink("\(time) \(level.rawValue.uppercased()) [\(job)] \(message)" + (extra.isEmpty ? "" : " " + extra))
        case .json:
            var object = fields
            object["time"] = time
            object["level"] = level.rawValue
            object["job"] = job
            object["message"] = message
            sink(JSONLine.encode(object))
        }
    }

    /// Logs at info level.
    public func info(_ message: String, _ fields: [String: String] = [:]) { log(.info, message, fields) }
    /// Logs at warning level.
    public func warning(_ message: String, _ fields: [String: String] = [:]) { log(.warning, message, fields) }
    /// Logs at error level.
    public func error(_ message: String, _ fields: [String: String] = [:]) { log(.error, message, fields) }
}

/// Compact JSON for one line, keys sorted so equal inputs give equal bytes.
public enum JSONLine {
    /// Encodes a flat dictionary of strings.
    public static func encode(_ object: [String: String]) -> String {
        "{" + object.keys.sorted().map { quote($0) + ":" + quote(object[$0] ?? "") }.joined(separator: ",") + "}"
    }

    /// A JSON string literal with the required escapes.
    public static func quote(_ text: String) -> String {
        var out = ""
        appendQuoted(text, to: &out)
        return out
    }

    /// Appends `text` as a JSON string literal to `out` (no intermediate string: the world generator's hot path).
    public static func appendQuoted(_ text: String, to out: inout String) {
        out += "\""
        // Most text needs no escape: appended whole (a scalar at a time costs ~10× more, and build-reports quotes
        // every cell of the months it stores).
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            out += text
            out += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
