import JobKit

/// The timeline as one JSON document for tools: `{"as_of":…,"subscription":{…},"timeline":[{"at","recorded_at",
/// "source","event","amount_micros","currency","amount","details":{…}}]}`; amounts as integer micros and exact text.
public enum TimelineJSON {
    /// Renders `timeline` on one line, keys in a fixed order.
    public static func render(_ timeline: Timeline) -> String {
        let header = "{" + timeline.header.fields.map { JSONLine.quote($0.0) + ":" + JSONLine.quote($0.1) }.joined(separator: ",") + "}"
        let entries = timeline.entries.map { entry in
            let fields: [(String, String)] = [
                ("at", JSONLine.quote(ExplainFormat.instant(entry.at))),
                ("recorded_at", entry.recordedAt.map { JSONLine.quote(ExplainFormat.instant($0)) } ?? "null"),
                ("source", JSONLine.quote(entry.source)),
                ("event", JSONLine.quote(entry.event)),
                ("amount_micros", entry.amountMicros.map { String($0) } ?? "null"),
                ("currency", entry.currency.map(JSONLine.quote) ?? "null"),
                ("amount", entry.amountMicros == nil ? "null" : JSONLine.quote(entry.amountText)),
                ("details", "{" + entry.details.map { JSONLine.quote($0.0) + ":" + JSONLine.quote($0.1) }.joined(separator: ",") + "}"),
            ]
            return "{" + fields.map { JSONLine.quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
        }
        return "{\"as_of\":\(JSONLine.quote(ExplainFormat.instant(timeline.asOf))),\"subscription\":\(header),"
            + "\"timeline\":[\(entries.joined(separator: ","))]}"
    }
}
