import Foundation
import Testing

/// The report files are one statement each, so the blocks several of them need are copied (the contribution block is
/// two calls of the schema's functions): the copies must not drift.
@Suite struct ReportFilesTests {
    /// The text between `-- BEGIN name` and `-- END name` in `file`.
    private func block(_ name: String, in file: String) throws -> String? {
        let text = try ReportSQL.text(file)
        guard let start = text.range(of: "-- BEGIN \(name) "), let end = text.range(of: "-- END \(name)\n") else { return nil }
        return String(text[start.lowerBound..<end.upperBound])
    }

    @Test func theSharedBlocksAreIdenticalInEveryFile() throws {
        let contribution = try ["mrr", "mrr_movements", "mrr_bridge", "fx_missing"].map { try block("contribution", in: $0) }
        #expect(contribution.allSatisfy { $0 != nil && $0 == contribution[0] })
        let movement = try ["mrr_movements", "mrr_bridge"].map { try block("movement", in: $0) }
        #expect(movement.allSatisfy { $0 != nil && $0 == movement[0] })
    }

    /// The shared block calls the schema's functions exactly as build-reports replaces them with its once-filled
    /// tables (`SharedReportTables.replacements`), and nothing else in a file calls them: a call written any other way
    /// would still run, but compute the contributions again in that file.
    @Test func theSharedBlockCallsWhatBuildReportsFillsOnce() throws {
        let calls = ["report_snapshot($1, $2, $3, $5)", "report_contribution($1, $2, $3, $5)"]
        for file in ["mrr", "mrr_movements", "mrr_bridge", "fx_missing"] {
            let text = try #require(try block("contribution", in: file))
            let whole = try ReportSQL.text(file)
            for call in calls {
                #expect(text.components(separatedBy: call).count == 2, "\(file): \(call)")
                let function = String(call.prefix { $0 != "(" }) + "("
                #expect(whole.components(separatedBy: function).count == 2, "\(file) calls \(function) outside its block")
            }
        }
    }

    @Test func everyReportBindsTheFiveParametersTheSameWay() throws {
        let files = ["mrr", "mrr_movements", "mrr_bridge", "fx_missing", "refunds", "entitlement_leakage"]
        let params = try files.map { file -> String? in
            let text = try ReportSQL.text(file)
            guard let start = text.range(of: "WITH params AS ("), let end = text.range(of: "AS known_basis\n),") else { return nil }
            return String(text[start.lowerBound..<end.upperBound])
        }
        #expect(params.allSatisfy { $0 != nil && $0 == params[0] })
    }
}
