import Foundation
import Testing
@testable import StoreExports

/// Loads report fixtures from the test bundle's Fixtures folder (provenance: Fixtures/README.md).
enum ReportFixtures {
    static func root() throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    }

    /// The bytes of `Fixtures/<path>`.
    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: try root().appendingPathComponent(path)))
    }

    /// File names directly inside a fixture folder, sorted.
    static func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: try root().appendingPathComponent(folder).path)
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted()
    }

    /// A date literal for tests (`2014-09-27`).
    static func date(_ text: String) throws -> CalendarDate {
        try #require(CalendarDateFormat.iso.parse(Substring(text)))
    }
}

/// Runs `body` and returns the StoreReportError it throws (failing the test when it throws nothing or something else).
func rejection(_ body: () throws -> Any) -> StoreReportError? {
    do {
        _ = try body()
        Issue.record("expected the file to be rejected")
        return nil
    } catch let error as StoreReportError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}
