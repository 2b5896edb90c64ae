import Foundation
import Testing
@testable import XLSX

/// The same inputs give the same bytes: a fixed document creation time and fixed zip timestamps.
@Suite struct DeterminismTests {
    @Test func theSameInputsGiveByteIdenticalFiles() throws {
        let directory = try temporaryDirectory()
        for constantMemory in [false, true] {
            let first = directory.appendingPathComponent("a-\(constantMemory).xlsx").path
            let second = directory.appendingPathComponent("b-\(constantMemory).xlsx").path
            try WorkbookTests.writeReport(to: first, constantMemory: constantMemory)
            try ChartTests.writeCharts(to: directory.appendingPathComponent("between.xlsx").path) // other work in between
            try WorkbookTests.writeReport(to: second, constantMemory: constantMemory)
            let a = try WorkbookReader(path: first), b = try WorkbookReader(path: second)
            #expect(a.bytes == b.bytes)
            #expect(a.parts["docProps/core.xml"]?.contains(#"<dcterms:created xsi:type="dcterms:W3CDTF">2026-06-01T00:00:00Z</dcterms:created>"#) == true)
            // Every entry stamped 1980-01-01 00:00 in DOS form: date (1980 - 1980) << 9 | 1 << 5 | 1 = 0x21, time 0.
            let stamps = a.zipTimestamps()
            #expect(stamps.count == a.order.count && stamps.count > 5)
            #expect(stamps.allSatisfy { $0.time == 0 && $0.date == 0x21 })
        }
    }

    @Test func anotherCreationTimeChangesTheBytes() throws {
        let directory = try temporaryDirectory()
        let first = directory.appendingPathComponent("a.xlsx").path, second = directory.appendingPathComponent("b.xlsx").path
        try WorkbookTests.writeReport(to: first)
        try WorkbookTests.writeReport(to: second, created: WorkbookTests.created + 86_400)
        #expect(try WorkbookReader(path: first).bytes != WorkbookReader(path: second).bytes)
    }
}
