import JobKit
import Testing

/// A job that declares a positional argument (`explain <id>`) keeps bare arguments; every other job refuses them,
/// and a query tool never takes the job lock.
@Suite struct PositionalArgumentTests {
    static let options: [JobOption] = [.flag("json", help: "j"), .value("since", placeholder: "date", help: "d")]

    @Test func bareArgumentsAreKeptOnlyWhenTheJobDeclaresOne() throws {
        let parsed = try JobArguments.parse(["--json", "--since", "2026-01-01", "1000000123456789"], options: Self.options, positional: true)
        #expect(parsed.positionals == ["1000000123456789"])
        #expect(parsed.flags == ["json"] && parsed.values == ["since": "2026-01-01"], "an option's value is not a positional")
        #expect(throws: JobError.self) { try JobArguments.parse(["1000000123456789"], options: Self.options) }
    }

    @Test func aQueryToolIsNeverExclusiveAndShowsItsPositionalInHelp() {
        let tool = JobDefinition(name: "probe", summary: "s", exclusive: true, positional: "id", queryTool: true) { _ in }
        #expect(!tool.exclusive && tool.queryTool)
        #expect(tool.helpText.contains("usage: probe [options] <id>"))
        let job = JobDefinition(name: "probe", summary: "s") { _ in }
        #expect(job.exclusive && !job.queryTool && job.helpText.contains("usage: probe [options]\n"))
    }
}
