import CompactMemory
@testable import Reconciliation
import Testing

/// The categoriser's order of order IDs (`GoogleCategorizer.byteOrder` over the interner's numbers) is `String`'s.
@Suite struct ByteOrderTests {
    @Test func theCategorisersOrderIsStringOrder() {
        var interner = ByteInterner()
        var values = ["", "G", "GPA.1", "GPA.1..0", "GPA.1..10", "GPA.3000-2791-0000-00000..5", "GPA.3000-2791-0000-00000..20",
                      "GPA.3000-2791-0000-00001", "GPA.3000-2791", "GPA.3000-2790-9999-99999", "GPA.3000-2791-0000-0000"]
        for index in 0..<3_000 { values.append("GPA.\(3_000 + index % 97)-\(index % 13)\(index % 7)-0000-\(index)..\(index % 11)") }
        let numbers = values.map { interner.intern($0) }
        #expect(Set(numbers).count == Set(values).count)
        let ordered = GoogleCategorizer.byteOrder(interner).map { interner.string($0) }
        #expect(ordered == Array(Set(values)).sorted())
    }
}
