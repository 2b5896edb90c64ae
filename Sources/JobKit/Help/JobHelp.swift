/// Renders a job's `--help`: every line at most `width` columns (80), the job's options with their help wrapped
/// under a common column, and one example of a real invocation.
public enum JobHelp {
    /// The widest line `--help` prints.
    public static let width = 80
    /// The column where an option's help starts (an option longer than this starts its help on the next line).
    static let helpColumn = 26

    /// The options every job accepts, shown first.
    static let commonOptions: [(String, String)] = [
        ("--help", "show this text"),
        ("--version", "show the version and the commit it was built from"),
        ("--dry-run", "make no writes; print what would be done"),
        ("--as-of <instant>", "act as of this date or instant (default: now, UTC)"),
        ("--limit <n>", "process at most n items"),
        ("--log-format text|json", "log format on stderr (default: text on a terminal, json otherwise)"),
    ]

    /// The help text of `definition`.
    public static func text(for definition: JobDefinition) -> String {
        let name = definition.name
        var lines = wrap("\(name): \(definition.summary)", indent: "  ")
        lines += [""] + wrap("usage: \(name) [options]" + (definition.positional.map { " <\($0)>" } ?? ""), indent: "         ")
        lines += ["", "common options:"]
        for (head, help) in commonOptions { lines += option(head, help) }
        if !definition.options.isEmpty {
            lines += ["", "\(name) options:"]
            for option in definition.options {
                switch option.kind {
                case .flag: lines += self.option("--\(option.name)", option.help)
                case .value(let placeholder): lines += self.option("--\(option.name) <\(placeholder)>", option.help)
                }
            }
        }
        if let example = JobExamples.example(for: name) {
            lines += ["", "example:"] + wrap(example.command, indent: "      ", first: "  ")
            lines += wrap(example.explanation, indent: "  ", first: "  ")
        }
        lines += [""]
        lines += wrap("environment: DATABASE_URL, or the libpq variables PGHOST, PGDATABASE, PGUSER, …", indent: "  ")
        lines += wrap("exit codes: 0 ok · 1 failed · 2 usage/config error · 3 threshold breached · 4 another run holds the lock",
                      indent: "  ")
        return lines.joined(separator: "\n")
    }

    /// One option: its name and placeholder, then its help from `helpColumn`, wrapped under that column.
    static func option(_ head: String, _ help: String) -> [String] {
        let start = "  " + head
        let pad = String(repeating: " ", count: helpColumn)
        if start.count + 1 > helpColumn {
            return [start] + wrap(help, indent: pad, first: pad)
        }
        return wrap(help, indent: pad, first: start + String(repeating: " ", count: helpColumn - start.count))
    }

    /// `text` broken at spaces into lines of at most `width` columns: the first line starts with `first` (default:
    /// nothing), the others with `indent`. A single word longer than a line is left whole on its own line.
    public static func wrap(_ text: String, indent: String, first: String = "", width: Int = JobHelp.width) -> [String] {
        var lines: [String] = []
        var current = first
        var currentIsEmpty = true
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !currentIsEmpty, current.count + 1 + word.count > width {
                lines.append(current)
                current = indent
                currentIsEmpty = true
            }
            current += (currentIsEmpty ? "" : " ") + word
            currentIsEmpty = false
        }
        lines.append(current)
        return lines
    }
}
