import Foundation

/// What a job executable declares about itself: its name, purpose, options and body.
public struct JobDefinition {
    public let name: String
    public let summary: String
    public let options: [JobOption]
    /// False for jobs that split work through row leases and may run concurrently.
    public let exclusive: Bool
    /// The placeholder of the job's one positional argument (`explain <id>`); nil: bare arguments are refused.
    public let positional: String?
    /// A read-only query tool (`explain`): no lock, no `job_run` row, and the summary line goes to stderr so that
    /// stdout carries only the tool's answer.
    public let queryTool: Bool
    /// The job's work; it records counts on the context and throws `JobError` to fail.
    public let run: (JobContext) throws -> Void

    /// Declares a job.
    public init(name: String, summary: String, options: [JobOption] = [], exclusive: Bool = true,
                positional: String? = nil, queryTool: Bool = false, run: @escaping (JobContext) throws -> Void) {
        self.name = name
        self.summary = summary
        self.options = options
        self.exclusive = exclusive && !queryTool
        self.positional = positional
        self.queryTool = queryTool
        self.run = run
    }

    /// The `--help` text.
    public var helpText: String {
        var lines = ["\(name): \(summary)", "", "usage: \(name) [options]" + (positional.map { " <\($0)>" } ?? ""), "", "common options:"]
        lines += [
            "  --help                 show this text",
            "  --version              show the version",
            "  --dry-run              make no writes; print what would be done",
            "  --as-of <instant>      act as of this date or instant (default: now, UTC)",
            "  --limit <n>            process at most n items",
            "  --log-format text|json log format on stderr (default: text on a terminal, json otherwise)",
        ]
        if !options.isEmpty {
            lines += ["", "\(name) options:"]
            for option in options {
                let head: String
                switch option.kind {
                case .flag: head = "--\(option.name)"
                case .value(let placeholder): head = "--\(option.name) <\(placeholder)>"
                }
                lines.append("  " + head.padding(toLength: max(23, head.count + 1), withPad: " ", startingAt: 0) + option.help)
            }
        }
        lines += ["", "environment: DATABASE_URL, or the libpq variables PGHOST, PGDATABASE, PGUSER, …",
                  "exit codes: 0 ok · 1 failed · 2 usage/config error · 3 threshold breached · 4 another run holds the lock"]
        return lines.joined(separator: "\n")
    }
}
