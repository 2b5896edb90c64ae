@testable import CompactMemory
import Testing

/// The order-ID interner: one number per distinct byte string, stable across growth, found again, read back, and
/// ordered as `String` orders ASCII text.
@Suite struct ByteInternerTests {
    func intern(_ text: String, _ interner: inout ByteInterner) -> Int32 { interner.intern(text) }

    @Test func eachValueOnceAcrossGrowth() {
        var interner = ByteInterner(capacity: 4)
        let values = (0..<20_000).map { "GPA.\(3_300 + $0 % 7_000)-\($0 % 7_000 * 7_919 % 10_000)-\($0 % 13)" }
        var numbers: [String: Int32] = [:]
        for value in values {
            let number = intern(value, &interner)
            if let seen = numbers[value] { #expect(seen == number) } else { numbers[value] = number }
        }
        #expect(interner.count == Set(values).count && interner.count == numbers.count)
        for (value, number) in numbers {
            #expect(interner.string(number) == value)
            #expect(interner.find(value) == number)
        }
        #expect(interner.find("GPA.none") == nil)
        #expect(intern("", &interner) == Int32(numbers.count) && interner.string(Int32(numbers.count)) == "")
    }

    @Test func byteOrderIsStringOrderForASCII() {
        var interner = ByteInterner()
        let values = ["GPA.12", "GPA.1", "GPA.1..0", "GPA.1..10", "GPA.1..2", "GPA.2", "", "GPA.10", "gpa.1", "GPA.1-"]
        let numbers = values.map { intern($0, &interner) }
        let sorted = numbers.sorted { interner.less($0, $1) }.map { interner.string($0) }
        #expect(sorted == values.sorted())
    }

    @Test func textsKeptOrNotReadTheSame() {
        var kept = ByteInterner(keepsText: true)
        var bare = ByteInterner()
        for value in ["EUR", "USD", "EUR", "Ünïcode", "JPY"] {
            let inKept = intern(value, &kept), inBare = intern(value, &bare)
            #expect(kept.string(inKept) == value && bare.string(inBare) == value)
        }
        #expect(kept.count == 4 && bare.count == 4)
    }

    @Test func arenaKeepsEveryValueInOrder() {
        var arena = ByteArena()
        var keys = ["GOOGLE:tok:GPA.1", "", "GOOGLE:tok:GPA.1", String(repeating: "k", count: 300), String(repeating: "é", count: 700_000), "x"]
        for index in keys.indices { keys[index].withUTF8 { arena.append(UnsafeRawBufferPointer($0)) } }
        #expect(arena.count == keys.count && keys.indices.map { arena.string(Int32($0)) } == keys)
    }

    /// The arena and the block array keep their values in shared raw blocks until a copy changes: a copy then gets
    /// blocks of its own, and neither sees the other's later values or changes.
    @Test func copiesChangeIndependently() {
        var arena = ByteArena(blockSize: 16)
        func add(_ text: String, to arena: inout ByteArena) { var text = text; text.withUTF8 { arena.append(UnsafeRawBufferPointer($0)) } }
        for index in 0..<40 { add("value \(index)", to: &arena) }
        var copy = arena
        add("only in the copy", to: &copy)
        add("only in the original", to: &arena)
        #expect(copy.count == 41 && arena.count == 41)
        #expect(copy.string(40) == "only in the copy" && arena.string(40) == "only in the original")
        #expect((0..<40).allSatisfy { copy.string(Int32($0)) == "value \($0)" && arena.string(Int32($0)) == "value \($0)" })

        var numbers = BlockArray<Int>()
        for index in 0..<70_000 { numbers.append(index) }
        var changed = numbers
        changed[5] = -5
        changed.append(-1)
        numbers[69_999] = 0
        #expect(numbers[5] == 5 && changed[5] == -5 && changed[69_999] == 69_999 && numbers[69_999] == 0)
        #expect(numbers.count == 70_000 && changed.count == 70_001 && changed[70_000] == -1)
    }
}
