/// The timeline for a terminal: the header as `name: value` lines, then one aligned row per step
/// (AT, RECORDED, SOURCE, EVENT, AMOUNT right-aligned, DETAILS as `name=value`).
public enum TimelineText {
    /// Renders `timeline` as lines of text (UTC ISO instants, exact decimal amounts).
    public static func render(_ timeline: Timeline) -> String {
        var lines = ["as of: " + ExplainFormat.instant(timeline.asOf)]
        let width = timeline.header.fields.map(\.0.count).max() ?? 0
        for (name, value) in timeline.header.fields where !value.isEmpty {
            lines.append(pad(name + ":", width + 1) + " " + value)
        }
        lines.append("")
        let headings = ["AT", "RECORDED", "SOURCE", "EVENT", "AMOUNT", "DETAILS"]
        let rows = timeline.entries.map { entry in
            [ExplainFormat.instant(entry.at), ExplainFormat.instant(entry.recordedAt), entry.source, entry.event, entry.amountText,
             entry.details.map { $0.0 + "=" + $0.1 }.joined(separator: " ")]
        }
        let widths = (0..<5).map { column in ([headings] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [headings] + rows {
            let cells = (0..<5).map { column in
                column == 4 ? String(repeating: " ", count: widths[column] - row[column].count) + row[column] : pad(row[column], widths[column])
            }
            lines.append((cells + [row[5]]).joined(separator: "  ").trimmingTrailingSpaces())
        }
        if rows.isEmpty { lines.append("(no rows recorded at or before the as-of instant)") }
        return lines.joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
