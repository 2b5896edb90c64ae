import Crypto
import Foundation
import Reconciliation
import Testing

/// The streamed items CSV: byte for byte the in-memory file of the same items, and its digest their SHA-256.
@Suite struct ReconciliationCSVWriterTests {
    func items(_ count: Int) -> [ReconciliationItem] {
        (0..<count).map { index in
            var item = ReconciliationItem(
                category: ReconciliationCategory.allCases[index % ReconciliationCategory.allCases.count],
                grainKey: "GPA.\(3_300 + index)-\(index * 7919 % 10_000)", side: index % 3 == 0 ? "refund" : "charge",
                productId: index % 5 == 0 ? "pro, \"yearly\"" : "premium_monthly", country: index % 4 == 0 ? "" : "DE",
                currency: "EUR", databaseCurrency: index % 2 == 0 ? nil : "USD", reportUnits: Int64(index % 3),
                databaseUnits: -Int64(index % 2), reportGross: Int64(index) * 1_234_567 - 500_000_000,
                databaseGross: index == 7 ? .min / 2 : Int64(index), storeFee: index == 9 ? .max / 4 : -150_000, tax: 0,
                detail: index % 6 == 0 ? "GOOGLE:a:1 GOOGLE:a:2\nline" : "")
            if index % 11 == 0 {
                item.priorPeriodAdjustment = true
                item.adjustmentPeriod = "2026-0\(index % 9 + 1)"
            }
            return item
        }
    }

    @Test(arguments: [0, 1, 2_000, 20_000]) func streamedEqualsInMemory(count: Int) throws {
        let items = items(count)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("csv-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("items.csv")
        let writer = try ReconciliationCSVWriter(path: path)
        for item in items { try writer.add(item) }
        let digest = try writer.finish()
        #expect(!FileManager.default.fileExists(atPath: path.path), "renamed into place only by commit")
        try writer.commit()
        let expected = ReconciliationCSV.items(items)
        #expect([UInt8](try Data(contentsOf: path)) == expected)
        #expect(digest == SHA256Digest.hex(expected))
        #expect(writer.byteCount == expected.count && writer.count == count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["items.csv"])
        #expect(try FileManager.default.attributesOfItem(atPath: path.path)[.posixPermissions] as? Int == 0o640)
        // Digest only: the same hash, no file.
        let hashOnly = try ReconciliationCSVWriter(path: nil)
        for item in items { try hashOnly.add(item) }
        #expect(try hashOnly.finish() == digest)
    }

    @Test func anUncommittedFileLeavesNothingBehind() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("csv-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let writer = try ReconciliationCSVWriter(path: folder.appendingPathComponent("items.csv"))
            for item in items(10) { try writer.add(item) }
            _ = try writer.finish()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
