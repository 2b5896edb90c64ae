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

    /// The `--help` text (`JobHelp`): wrapped to 80 columns, with the job's example.
    public var helpText: String { JobHelp.text(for: self) }
}
