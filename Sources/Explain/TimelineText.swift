/// The timeline for a terminal, at most `width` (100) columns: the header as `name: value` lines, then one head line
/// per step (AT, EVENT, AMOUNT right-aligned, SOURCE) and its details as `name=value` on indented continuation
/// lines; whatever does not fit is wrapped, never cut off.
///
/// Reading it: amounts are in the currency's own digits (`450 JPY`, `9.99 USD`, all digits when more precise);
/// a grace or on-hold row charged nothing, so its AMOUNT is empty and `retrying=9.99 USD` names the renewal price
/// being retried; store reason codes read `other (0)`; `recorded=` shows when the pipeline learned a step, where
/// that differs from AT (a late webhook). The JSON form (`TimelineJSON`) keeps the stored values unchanged.
public enum TimelineText {
    /// The terminal width every line fits in.
    public static let width = 100
    /// `billing_transaction` events of a renewal that failed and is being retried: nothing was charged.
    static let retriedEvents: Set<String> = ["ENTERED_GRACE_PERIOD", "ENTERED_ON_HOLD"]

    /// Renders `timeline` as lines of text (UTC ISO instants, amounts in their currency's digits).
    public static func render(_ timeline: Timeline) -> String {
        var lines = ["as of: " + ExplainFormat.instant(timeline.asOf)]
        let nameWidth = (timeline.header.fields.map(\.0.count).max() ?? 0) + 1
        for (name, value) in timeline.header.fields where !value.isEmpty {
            let line = pad(name + ":", nameWidth) + " " + TextValue.show(name, value)
            lines += line.count <= width ? [line] : TextWrap.lines(head: name + ":", words: [TextValue.show(name, value)],
                                                                  indent: nameWidth + 1, width: width)
        }
        lines.append("")
        let rows = timeline.entries.map(row)
        let atWidth = max(2, rows.map(\.at.count).max() ?? 0)
        let eventWidth = max(5, rows.map(\.event.count).max() ?? 0)
        let amountWidth = max(6, rows.map(\.amount.count).max() ?? 0)
        let sourceWidth = max(6, rows.map(\.source.count).max() ?? 0)
        // The source stays on the head line while the widest one fits; otherwise it leads the details.
        let sourceInHead = atWidth + eventWidth + amountWidth + sourceWidth + 6 <= width
        func head(_ at: String, _ event: String, _ amount: String, _ source: String) -> String {
            let start = pad(at, atWidth) + "  " + pad(event, eventWidth) + "  "
                + String(repeating: " ", count: amountWidth - amount.count) + amount
            return (sourceInHead ? start + "  " + source : start).trimmingTrailingSpaces()
        }
        lines.append(head("AT", "EVENT", "AMOUNT", "SOURCE"))
        for row in rows {
            lines += TextWrap.lines(head: head(row.at, row.event, row.amount, row.source),
                                    words: (sourceInHead ? [] : ["source=" + row.source]) + row.details,
                                    indent: atWidth + 2, width: width)
        }
        if rows.isEmpty { lines.append("(no rows recorded at or before the as-of instant)") }
        return lines.joined(separator: "\n")
    }

    /// One entry's parts as text shows them.
    static func row(_ entry: TimelineEntry) -> (at: String, event: String, amount: String, source: String, details: [String]) {
        var details: [String] = []
        if let recorded = entry.recordedAt, recorded != entry.at { details.append("recorded=" + ExplainFormat.instant(recorded)) }
        var amount = ExplainFormat.amount(entry.amountMicros, entry.currency)
        if entry.source == "billing_transaction", retriedEvents.contains(entry.event), !amount.isEmpty {
            details.append("retrying=" + amount)
            amount = ""
        }
        details += entry.details.map { $0.0 + "=" + TextValue.show($0.0, $0.1) }
        return (ExplainFormat.instant(entry.at), entry.event, amount, entry.source, details)
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
