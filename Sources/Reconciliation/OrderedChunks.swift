import Foundation

/// Work split into numbered chunks done on two threads and taken in order: the calling thread produces the even
/// chunks, a helper thread the odd ones (at most `depth` of them ahead), and every output reaches `consume` on the
/// calling thread in chunk order. What `produce` reads must not change while this runs; what `consume` does stays on
/// the calling thread. When `consume` throws, the helper stops at its next chunk and the error is thrown after it
/// has ended.
final class OrderedChunks<Output>: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [Int: Output] = [:]
    private var stopped = false
    private var helperEnded = false
    private let produce: (Int) -> Output

    private init(produce: @escaping (Int) -> Output) {
        self.produce = produce
    }

    /// Produces chunks `0..<count` on two threads and consumes them in order.
    static func run(count: Int, depth: Int = 2, produce: @escaping (Int) -> Output, consume: (Output) throws -> Void) throws {
        guard count > 1 else {
            for chunk in 0..<count { try consume(produce(chunk)) }
            return
        }
        let pipe = OrderedChunks(produce: produce)
        let thread = Thread { pipe.help(count: count, depth: depth) }
        thread.stackSize = 1 << 22
        thread.start()
        defer { pipe.stop() }
        for chunk in 0..<count {
            try consume(chunk % 2 == 0 ? produce(chunk) : pipe.take(chunk))
        }
    }

    /// The helper's body: the odd chunks, in order, never more than `depth` waiting.
    private func help(count: Int, depth: Int) {
        var chunk = 1
        while chunk < count {
            condition.lock()
            while ready.count >= depth, !stopped { condition.wait() }
            let stop = stopped
            condition.unlock()
            if stop { break }
            let output = produce(chunk)
            condition.lock()
            ready[chunk] = output
            condition.broadcast()
            condition.unlock()
            chunk += 2
        }
        condition.lock()
        helperEnded = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the helper's output of `chunk`.
    private func take(_ chunk: Int) -> Output {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let output = ready.removeValue(forKey: chunk) {
                condition.broadcast()
                return output
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
