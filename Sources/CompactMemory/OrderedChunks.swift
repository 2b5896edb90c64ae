import Foundation

/// Work split into numbered chunks done on two threads and taken in order: the calling thread and a helper thread
/// each take the next chunk nobody has taken yet (never more than `depth` chunks ahead of the one to consume), and
/// every output reaches `consume` on the calling thread in chunk order. The calling thread consumes as well, so it
/// produces fewer chunks than the helper when consuming costs something. What `produce` reads must not change while
/// this runs; what `consume` does stays on the calling thread. When `consume` throws, the helper stops at its next
/// chunk and the error is thrown after it has ended.
public final class OrderedChunks<Output>: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [Int: Output] = [:]
    /// The next chunk nobody has taken, and the next one to consume.
    private var nextToTake = 0, nextToConsume = 0
    private var stopped = false
    private var helperEnded = false
    private let count: Int
    private let depth: Int
    private let produce: (Int) -> Output

    private init(count: Int, depth: Int, produce: @escaping (Int) -> Output) {
        self.count = count
        self.depth = max(1, depth)
        self.produce = produce
    }

    /// Produces chunks `0..<count` on two threads and consumes them in order.
    public static func run(count: Int, depth: Int = 4, produce: @escaping (Int) -> Output, consume: (Output) throws -> Void) throws {
        guard count > 1 else {
            for chunk in 0..<count { try consume(produce(chunk)) }
            return
        }
        let pipe = OrderedChunks(count: count, depth: depth, produce: produce)
        let thread = Thread { pipe.help() }
        thread.stackSize = 1 << 22
        thread.start()
        defer { pipe.stop() }
        for chunk in 0..<count { try consume(pipe.output(of: chunk)) }
    }

    /// The next chunk to take, if one may be taken now (call with the lock held).
    private func take() -> Int? {
        guard nextToTake < count, nextToTake < nextToConsume + depth else { return nil }
        nextToTake += 1
        return nextToTake - 1
    }

    /// The helper's body: chunks as they become free to take, until every one is taken or the pipe stops.
    private func help() {
        condition.lock()
        while !stopped, nextToTake < count {
            guard let chunk = take() else {
                condition.wait()
                continue
            }
            condition.unlock()
            let output = produce(chunk)
            condition.lock()
            ready[chunk] = output
            condition.broadcast()
        }
        helperEnded = true
        condition.broadcast()
        condition.unlock()
    }

    /// The output of `chunk` (the next to consume): the helper's when it has it, else produced here — this chunk or,
    /// while the helper has it in hand, a later one.
    private func output(of chunk: Int) -> Output {
        condition.lock()
        defer { condition.unlock() }
        nextToConsume = chunk
        condition.broadcast()
        while true {
            if let output = ready.removeValue(forKey: chunk) { return output }
            if let taken = take() {
                condition.unlock()
                let output = produce(taken)
                condition.lock()
                if taken == chunk { return output }
                ready[taken] = output
                continue
            }
            condition.wait()
        }
    }

    /// Stops the helper and waits until it has ended.
    private func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !helperEnded { condition.wait() }
        condition.unlock()
    }
}
