import CompactMemory
import Foundation
import Testing

/// The bounded hand-over between two threads: every element once, in order; never more than `depth` waiting; a
/// producer's failure reaches the consumer, a consumer's stop the producer; `waitUntilConsumed` returns only once
/// the consumer is done with every element; spares are kept up to their limit.
@Suite struct BoundedHandOffTests {
    struct Broken: Error, Equatable { let line: Int }

    /// Runs `body` on a thread of its own; the returned semaphore is signalled when it has returned.
    func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread { body(); done.signal() }.start()
        return done
    }

    @Test func everyElementOnceInOrderAndNeverMoreThanDepthWaiting() throws {
        let handOff = BoundedHandOff<Int>(depth: 3)
        let produced = onThread {
            for value in 0..<20_000 { try! handOff.put(value) }
            handOff.finish()
        }
        var taken: [Int] = []
        while let value = try handOff.take() {
            taken.append(value)
            if value == 10 { Thread.sleep(forTimeInterval: 0.05) }  // the producer fills the queue meanwhile
        }
        produced.wait()
        #expect(taken == Array(0..<20_000))
    }

    @Test func theProducerWaitsWhileDepthElementsWait() throws {
        let handOff = BoundedHandOff<Int>(depth: 2)
        let counter = Counter()
        let produced = onThread {
            for value in 0..<5 { try! handOff.put(value); counter.add() }
            handOff.finish()
        }
        counter.wait(until: 2)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(counter.value == 2)  // two waiting, the third put blocked
        #expect(try handOff.take() == 0)
        counter.wait(until: 3)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(counter.value == 3)
        while try handOff.take() != nil {}
        produced.wait()
        #expect(counter.value == 5)
    }

    @Test func aProducersFailureReachesTheConsumerBeforeWaitingElements() throws {
        let handOff = BoundedHandOff<Int>(depth: 4)
        try handOff.put(1)
        handOff.finish(failure: Broken(line: 7))
        #expect(throws: Broken(line: 7)) { try handOff.take() }
        handOff.waitUntilFinished()
    }

    @Test func aConsumersStopReachesAWaitingProducer() throws {
        let handOff = BoundedHandOff<Int>(depth: 1)
        let outcome = Outcome()
        let produced = onThread {
            do {
                for value in 0..<100 { try handOff.put(value) }
                outcome.set("all put")
            } catch {
                outcome.set("\(error)")
            }
            handOff.finish()
        }
        #expect(try handOff.take() == 0)
        handOff.stop(Broken(line: 3))
        handOff.waitUntilFinished()
        produced.wait()
        #expect(outcome.value == "\(Broken(line: 3))")
        #expect(throws: Broken(line: 3)) { try handOff.put(1) }
    }

    @Test func waitUntilConsumedReturnsOnceTheConsumerIsDoneWithEveryElement() throws {
        let handOff = BoundedHandOff<Int>(depth: 4)
        let counter = Counter()
        let consumed = onThread {
            while let value = try! handOff.take() {
                Thread.sleep(forTimeInterval: 0.02)
                counter.add(value)
            }
        }
        for value in 1...10 { try handOff.put(value) }
        try handOff.waitUntilConsumed()
        #expect(counter.value == 55)  // the last element's work done, not only taken
        handOff.finish()
        consumed.wait()
    }

    @Test func sparesAreKeptUpToTheirLimit() {
        let handOff = BoundedHandOff<[UInt8]>(depth: 1, spares: 2)
        for size in [1, 2, 3] { handOff.recycle([UInt8](repeating: 0, count: size)) }
        #expect(handOff.spare()?.count == 2)
        #expect(handOff.spare()?.count == 1)
        #expect(handOff.spare() == nil)
    }

    /// A taken element is the consumer's alone, while later elements still wait behind it: the hand-over keeps no
    /// reference to it. (It kept up to 64 taken elements while the producer stayed ahead: reconcile's database batches,
    /// ~70 MB at 3M earnings rows, growing with the month; and a buffer recycled by the consumer was still referenced
    /// by the queue, so its next write copied it: the import's zip chunks, ~36 MB.)
    @Test func aTakenElementIsNotKeptWhileOthersWait() throws {
        final class Box {}
        let handOff = BoundedHandOff<Box>(depth: 3)
        weak var first: Box?
        do {
            let box = Box()
            first = box
            try handOff.put(box)
        }
        try handOff.put(Box())
        try handOff.put(Box())
        do {
            let taken = try #require(try handOff.take())
            #expect(taken === first)
        }
        #expect(first == nil)  // dropped by the consumer, so gone: two elements still wait
        handOff.finish()
        #expect(try handOff.take() != nil)
        #expect(try handOff.take() != nil)
        #expect(try handOff.take() == nil)
    }
}

/// A count shared between the test's threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add(_ amount: Int = 1) { lock.withLock { count += amount } }
    /// Waits (up to a minute) until the count has reached `target`.
    func wait(until target: Int) {
        let deadline = Date().addingTimeInterval(60)
        while value < target, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
    }
}

/// A text set by one thread and read by another.
final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    var value: String { lock.withLock { text } }
    func set(_ value: String) { lock.withLock { text = value } }
}
