import Foundation
import JobKit
import Postgres
import Testing

/// The common command-line contract, table-driven.
@Suite struct JobArgumentsTests {
    static let options: [JobOption] = [.flag("status", help: "s"), .value("since", placeholder: "date", help: "d")]

    @Test func commonOptionsParse() throws {
        let parsed = try JobArguments.parse(
            ["--dry-run", "--as-of", "2026-11-29", "--limit=50", "--log-format", "json", "--status", "--since=2026-01-01"],
            options: Self.options)
        #expect(parsed.dryRun)
        #expect(parsed.asOf.map(PostgresTimestamp.iso8601) == "2026-11-29T00:00:00.000000Z")
        #expect(parsed.limit == 50)
        #expect(parsed.logFormat == .json)
        #expect(parsed.flags == ["status"])
        #expect(parsed.values == ["since": "2026-01-01"])
    }

    @Test(arguments: [
        ("2026-11-29T06:30:00Z", "2026-11-29T06:30:00.000000Z"),
        ("2026-11-29T06:30:00+09:00", "2026-11-28T21:30:00.000000Z"),
        ("2026-02-28T23:59:59.5-01:00", "2026-03-01T00:59:59.500000Z"),
    ])
    func asOfTakesExplicitZones(text: String, expected: String) throws {
        #expect(try JobArguments.parse(["--as-of", text], options: []).asOf.map(PostgresTimestamp.iso8601) == expected)
    }

    @Test(arguments: [
        ["--bogus"], ["--limit", "0"], ["--limit", "ten"], ["--limit"], ["--log-format", "xml"],
        ["--as-of", "yesterday"], ["--as-of", "2026-11-29T06:00:00"], ["--status=yes"], ["positional"],
    ])
    func badUsageIsAUsageError(arguments: [String]) {
        do {
            _ = try JobArguments.parse(arguments, options: Self.options)
            Issue.record("\(arguments) should be rejected")
        } catch let error as JobError {
            #expect(error.exitCode == .usageOrConfiguration)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func missingConfigurationNamesTheVariable() {
        let environment = JobEnvironment(["HOME": "/root"])
        let error = #expect(throws: JobError.self) { try environment.require("APPLE_KEY_FILE", purpose: "App Store key") }
        #expect(error?.description.contains("APPLE_KEY_FILE") == true)
        let database = #expect(throws: JobError.self) { try environment.databaseConfiguration(applicationName: "t") }
        #expect(database?.description.contains("DATABASE_URL") == true)
        #expect(database?.exitCode == .usageOrConfiguration)
    }

    @Test func secretsAreReadFromTheFileTheVariableNames() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try Data("s3cr3t".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        defer { try? FileManager.default.removeItem(at: file) }
        let environment = JobEnvironment(["KEY_FILE": file.path, "BAD_FILE": "/nonexistent/key"])
        #expect(try environment.secretFromFile("KEY_FILE", purpose: "k") == Data("s3cr3t".utf8))
        let error = #expect(throws: JobError.self) { try environment.secretFromFile("BAD_FILE", purpose: "k") }
        #expect(error?.description.contains("BAD_FILE") == true)
        #expect(error?.description.contains("s3cr3t") == false)
    }
}

/// Dates and months are read strictly: a day or month the calendar does not have is refused, never rolled over.
@Suite struct StrictDateArgumentTests {
    @Test(arguments: ["2026-02-30", "2026-02-29", "2026-04-31", "2026-02-30T10:00:00Z", "2026-13-01"])
    func asOfRefusesDaysTheMonthDoesNotHave(text: String) {
        #expect(throws: JobError.self) { try JobArguments.parse(["--as-of", text], options: []) }
    }

    @Test func leapDayIsAccepted() throws {
        #expect(try JobArguments.parse(["--as-of", "2028-02-29"], options: []).asOf.map(PostgresTimestamp.iso8601)
            == "2028-02-29T00:00:00.000000Z")
    }

    @Test func theRunnerExitsTwoBeforeItConnects() {
        let definition = JobDefinition(name: "strict", summary: "s") { _ in Issue.record("the job ran") }
        let code = JobRunner.run(definition, arguments: ["--as-of", "2026-02-30"], environment: JobEnvironment([:]), output: { _ in })
        #expect(code == .usageOrConfiguration)
    }

    @Test(arguments: ["2026-13", "2026-00", "2026-1", "26-11", "2026-11-01", "2026/11", "２０２６-11"])
    func monthsAreRefused(text: String) {
        #expect(throws: JobError.self) { try JobArguments.parseMonth(text, option: "--period") }
    }

    @Test func aMonthIsRead() throws {
        let (year, month) = try JobArguments.parseMonth("2026-11", option: "--period")
        #expect(year == 2026 && month == 11)
    }
}
