@testable import CompactMemory
import Testing

/// The in-place sort puts every input in the order the standard sort gives (the elements being distinct by their
/// whole value, unstable order cannot show): random, sorted, reversed, few distinct keys, organ pipes, and with
/// the heapsort taking over at once.
@Suite struct InPlaceSortTests {
    struct Pair: Equatable {
        var key: Int
        var tag: Int
    }

    static func inputs() -> [[Pair]] {
        var generator = SystemRandomNumberGenerator()
        var shapes: [[Int]] = [[], [1], [2, 1], Array(0..<1_000), Array((0..<1_000).reversed()), Array(repeating: 7, count: 300)]
        shapes.append((0..<5_000).map { _ in Int.random(in: 0..<1_000_000, using: &generator) })
        shapes.append((0..<5_000).map { _ in Int.random(in: 0..<4, using: &generator) })
        shapes.append(Array(0..<700) + Array((0..<700).reversed()))
        for size in [15, 16, 17, 33] { shapes.append((0..<size).map { ($0 * 7_919) % 31 }) }
        // Past the size where the two sides of the first partition are sorted on two threads.
        let large = InPlaceSort.twoThreadMinimum * 2
        shapes.append((0..<large).map { _ in Int.random(in: 0..<1_000_000, using: &generator) })
        shapes.append(Array((0..<large).reversed()))
        shapes.append((0..<large).map { _ in Int.random(in: 0..<3, using: &generator) })
        return shapes.map { keys in keys.enumerated().map { Pair(key: $1, tag: $0) } }
    }

    @Test(arguments: [nil, 0, 1] as [Int?], [false, true]) func ordersAsTheStandardSort(depthLimit: Int?, twoThreads: Bool) {
        for input in Self.inputs() {
            let less = { (a: Pair, b: Pair) in a.key != b.key ? a.key < b.key : a.tag < b.tag }
            var sorted = input
            InPlaceSort.sort(&sorted, depthLimit: depthLimit, twoThreads: twoThreads, by: less)
            #expect(sorted == input.sorted(by: less), "\(input.count) elements")
        }
    }
}
