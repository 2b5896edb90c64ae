import Explain
import Foundation
import Postgres
import Testing

/// The built `explain` executable: exit 2 with a clear message for an unknown identifier; for a known one, stdout is
/// exactly one JSON document (the summary line goes to stderr) and no `job_run` row is written.
@Suite(.serialized) struct ExplainProcessTests {
    static let world: Result<ExplainWorld, any Error> = Result { try ExplainWorld.make("test_explain_process") }

    /// Runs the executable built beside the test binary; returns exit status, stdout and stderr.
    func run(_ arguments: [String], database: String) throws -> (status: Int32, out: String, err: String) {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("explain")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build the jobs first (make test does)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out"), err = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--log-format", "json"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PGDATABASE"] = database
        environment["DATABASE_URL"] = nil
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: out, encoding: .utf8), try String(contentsOf: err, encoding: .utf8))
    }

    @Test func anUnknownIdentifierExitsTwoWithAClearMessage() throws {
        let world = try Self.world.get()
        let name = try #require(world.configuration.databaseOverride)
        let result = try run(["no-such-subscription-42"], database: name)
        #expect(result.status == 2, "\(result.err)")
        #expect(result.err.contains("no subscription matches"), "\(result.err)")
        #expect(result.err.contains("apple_subscription_identity.original_transaction_id"), "\(result.err)")
        #expect(result.out.isEmpty, "nothing on stdout for a failed lookup: \(result.out)")
        let missing = try run([], database: name)
        #expect(missing.status == 2 && missing.err.contains("exactly one identifier"), "\(missing.err)")
    }

    @Test func aKnownIdentifierPrintsOneJSONDocumentAndWritesNoJobRun() throws {
        let world = try Self.world.get()
        let name = try #require(world.configuration.databaseOverride)
        let db = try world.connect()
        defer { db.close() }
        let original = "2000\(Int.random(in: 100_000_000...999_999_999))"
        try world.project(ExplainWorld.Step(type: "SUBSCRIBED", subtype: "INITIAL_BUY", transaction: original, signedDay: 0, purchaseDay: 0,
                                            expiresDay: 30, priceMilli: 9990), original: original, db: db)
        let runsBefore = try db.query("SELECT count(*) AS n FROM job_run").first?.decode(Int64.self, "n")
        let result = try run(["--json", "--as-of", "2026-02-01T00:00:00Z", original], database: name)
        #expect(result.status == 0, "\(result.err)")
        let document = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        let timeline = document?["timeline"] as? [[String: Any]] ?? []
        #expect(timeline.contains { $0["event"] as? String == "PURCHASED" && $0["amount"] as? String == "9.990000 USD" })
        #expect(!result.out.contains(original), "own identifiers are masked without --raw-ids")
        #expect(result.err.contains("\"job\":\"explain\""), "the summary line goes to stderr: \(result.err)")
        let runsAfter = try db.query("SELECT count(*) AS n FROM job_run").first?.decode(Int64.self, "n")
        #expect(runsBefore == runsAfter, "explain is read-only and writes no job_run row")
        let help = try run(["--help"], database: name)
        #expect(help.status == 0 && help.out.contains("usage: explain [options] <subscription id"))
    }
}
