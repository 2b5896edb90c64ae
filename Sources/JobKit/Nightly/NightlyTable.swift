import Foundation

/// The text `nightly` prints: a status line per step and the summary table at the end, each under 80 columns.
public enum NightlyTable {
    /// The column header above the status lines.
    public static let header = pad("step", 22) + pad("exit", 8) + pad("verdict", 8) + pad("time", 9) + "summary"

    /// The end-of-run table: one row per step (run, skipped or not reached), then the chain's verdict.
    public static func summary(_ results: [NightlyStepResult], notReached: [String], exitCode: JobExitCode) -> [String] {
        var lines = ["nightly summary", header, String(repeating: "-", count: 78)]
        lines += results.map(\.statusLine).map { clip($0, 78) }
        lines += notReached.map { pad($0, 22) + pad("—", 8) + pad("stopped", 8) + pad("", 9) + "not run: an earlier step failed hard" }
        let total = results.reduce(0) { $0 + $1.durationMilliseconds }
        lines.append(String(repeating: "-", count: 78))
        lines.append("nightly: exit \(exitCode.rawValue) after \(duration(total)); "
                     + "\(results.filter { $0.severity == .ok }.count) ok, \(results.filter { $0.severity == .soft }.count) soft, "
                     + "\(results.filter { $0.severity == .hard }.count) hard, \(results.filter { $0.severity == .skipped }.count + notReached.count) not run")
        return lines
    }

    /// A one-line digest of a job's JSON summary line: its status or error, then its non-zero counts.
    public static func digest(ofSummaryLine line: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            return clip(line.trimmingCharacters(in: .whitespaces), 40)
        }
        var parts: [String] = []
        if let error = object["error"] as? String { parts.append(error) }
        if let counts = object["counts"] as? [String: Int] {
            parts += counts.keys.sorted().filter { counts[$0] != 0 }.map { "\($0)=\(counts[$0] ?? 0)" }
        }
        return clip(parts.isEmpty ? "nothing to do" : parts.joined(separator: " "), 31)
    }

    /// `text` padded with spaces (or clipped) to `width` columns.
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? String(text.prefix(width - 1)) + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// `text` cut to `width` columns, ending in `…` when cut.
    static func clip(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }

    /// `850ms`, `12.3s`, `4m05s`.
    static func duration(_ milliseconds: Int) -> String {
        if milliseconds < 1_000 { return "\(milliseconds)ms" }
        if milliseconds < 60_000 { return String(format: "%.1fs", Double(milliseconds) / 1_000) }
        let seconds = milliseconds / 1_000
        return String(format: "%dm%02ds", seconds / 60, seconds % 60)
    }
}
