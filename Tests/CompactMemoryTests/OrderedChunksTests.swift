import Foundation
@testable import CompactMemory
import Testing

/// Chunks produced on two threads reach the consumer in order, every one once; a consumer that throws stops the
/// helper thread and its error comes back.
@Suite struct OrderedChunksTests {
    struct Stop: Error {}

    @Test(arguments: [0, 1, 2, 7, 100]) func everyChunkOnceInOrder(count: Int) throws {
        var seen: [Int] = []
        try OrderedChunks<[Int]>.run(count: count, produce: { chunk in
            // Uneven work so that either thread can be ahead.
            if chunk % 3 == 0 { usleep(200) }
            return [chunk, chunk * chunk]
        }, consume: { output in
            #expect(output[1] == output[0] * output[0])
            seen.append(output[0])
        })
        #expect(seen == Array(0..<count))
    }

    @Test func aThrowingConsumerStopsTheHelper() {
        let produced = ProducedCount()
        var consumed = 0
        #expect(throws: Stop.self) {
            try OrderedChunks<Int>.run(count: 1_000, produce: { chunk in
                produced.add()
                return chunk
            }, consume: { chunk in
                consumed += 1
                if chunk == 10 { throw Stop() }
            })
        }
        #expect(consumed == 11)
        #expect(produced.value < 40, "the helper stopped within its few chunks ahead (\(produced.value) produced)")
    }

    final class ProducedCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.lock(); count += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    }
}
