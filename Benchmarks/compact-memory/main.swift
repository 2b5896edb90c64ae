// Each CompactMemory helper measured alone against what the standard library offers for the same
// work, at the size of a month-end file: wall time, the median of 5 runs. Prints markdown rows for
// Benchmarks/results.md. (Peak memory is not measured here: VmHWM does not reset reliably in-process; the
// end-to-end runs measure it.)
//     bench-compact-memory [N]      (default 1,000,000)
import CompactMemory
import Dispatch
import Foundation

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1_000_000 : 1_000_000
let repeats = 5

/// Median wall seconds over `repeats` runs of `body` (whose result is kept).
func measure(_ body: () -> Int) -> Double {
    var times: [Double] = []
    var kept = 0
    for _ in 0..<repeats {
        let start = DispatchTime.now().uptimeNanoseconds
        kept &+= body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    if kept == 42 { print("") }
    return times.sorted()[repeats / 2]
}

nonisolated(unsafe) var rows: [String] = []
func row(_ helper: String, _ work: String, ours: Double, _ peer: String, _ theirs: Double) {
    rows.append(String(format: "| %@ | %@ | %.3f s | %@ | %.3f s | %.2f× |", helper, work, ours, peer, theirs, theirs / max(ours, 1e-9)))
}

// A unit of the compact engine: 56 bytes.
struct Unit: BitwiseCopyable { var a: Int64, b: Int64, c: Int64, d: Int64, e: Int64, f: Int64, g: Int64 }
var generator = SystemRandomNumberGenerator()
let order = (0..<count).map { _ in Int.random(in: 0..<count, using: &generator) }

// 1. BlockArray against ContiguousArray: append `count` units, then read them in a random order.
row("BlockArray", "append \(count) 56-byte units, read them in random order", ours: measure {
    var units = BlockArray<Unit>()
    for index in 0..<count { units.append(Unit(a: Int64(index), b: 1, c: 2, d: 3, e: 4, f: 5, g: 6)) }
    var sum = 0
    for index in order { sum &+= Int(units[index].a) }
    return sum
}, "ContiguousArray", measure {
    var units = ContiguousArray<Unit>()
    for index in 0..<count { units.append(Unit(a: Int64(index), b: 1, c: 2, d: 3, e: 4, f: 5, g: 6)) }
    var sum = 0
    for index in order { sum &+= Int(units[index].a) }
    return sum
})

// 2. ByteInterner against Dictionary<String, Int32> (+ [String] to read a number back): `count` order IDs as
// bytes end to end (as a COPY row brings them), two thirds distinct, numbered, then each read back and found.
var idBytes: [UInt8] = []
var idRanges: [Range<Int>] = []
for index in 0..<count {
    let id = "GPA.\(3000 + index % 7000)-\(index % 10_000)-\((index * 2 / 3) % 10_000)-\((index * 2 / 3) / 10_000)..\(index % 3)"
    let start = idBytes.count
    idBytes += Array(id.utf8)
    idRanges.append(start..<idBytes.count)
}
row("ByteInterner", "number \(count) order IDs (bytes), read each back, find each", ours: measure {
    var interner = ByteInterner(capacity: 1 << 16)
    var numbers: [Int32] = []
    numbers.reserveCapacity(count)
    idBytes.withUnsafeBytes { raw in interner.intern(raw, ranges: idRanges, into: &numbers) }
    var sum = 0
    idBytes.withUnsafeBytes { raw in
        for (index, range) in idRanges.enumerated() {
            sum &+= interner.withBytes(numbers[index]) { $0.count }
            sum &+= Int(interner.find(UnsafeRawBufferPointer(rebasing: raw[range])) ?? 0)
        }
    }
    return sum
}, "Dictionary + Array of String", measure {
    var numbers: [String: Int32] = [:]
    var texts: [String] = []
    var assigned: [Int32] = []
    assigned.reserveCapacity(count)
    idBytes.withUnsafeBytes { raw in
        for range in idRanges {
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: raw[range]), as: UTF8.self)
            if let number = numbers[text] { assigned.append(number); continue }
            numbers[text] = Int32(texts.count)
            assigned.append(Int32(texts.count))
            texts.append(text)
        }
    }
    var sum = 0
    idBytes.withUnsafeBytes { raw in
        for (index, range) in idRanges.enumerated() {
            sum &+= texts[Int(assigned[index])].utf8.count
            sum &+= Int(numbers[String(decoding: UnsafeRawBufferPointer(rebasing: raw[range]), as: UTF8.self)] ?? 0)
        }
    }
    return sum
})

print("| helper | work | ours | standard library | theirs | theirs / ours |")
print("|---|---|---|---|---|---|")
for line in rows { print(line) }
