import Foundation

/// A bounded first-in, first-out hand-over from one producing thread to one consuming thread: at most `depth`
/// elements wait, so a fast producer waits for a slow consumer and memory holds a few elements whatever the stream's
/// length. Either side can stop the other with an error: the producer's `finish(failure:)` reaches the consumer's
/// next `take`, the consumer's `stop` the producer's next `put`. Spent elements can be handed back for reuse (up to
/// `spares` of them), so a steady stream allocates only its first few elements.
///
/// The one queue of the pipelines that read on one thread while another writes (the zip's inflating thread, the
/// Google earnings fact pipe, reconcile's two sorted streams, the items CSV's writing thread).
public final class BoundedHandOff<Element>: @unchecked Sendable {
    /// Thrown by `put` once the consumer has stopped without an error of its own.
    public struct Stopped: Error {
        /// A stop without a cause.
        public init() {}
    }

    private let condition = NSCondition()
    private let depth: Int
    private let spareLimit: Int
    /// The queue: the slots before `head` were taken and hold nil, so the hand-over keeps no reference to an element
    /// the consumer has (a spent buffer recycled by it stays uniquely referenced, and memory holds at most `depth`
    /// waiting elements, not the taken ones too).
    private var waiting: [Element?] = []
    private var head = 0
    private var spares: [Element] = []
    private var finished = false
    private var failure: Error?
    private var stopped: Error?
    /// True while the consumer holds an element it took (until it asks for the next one).
    private var consuming = false

    /// A hand-over holding at most `depth` waiting elements and keeping at most `spares` spent ones for reuse.
    public init(depth: Int, spares: Int = 0) {
        precondition(depth > 0, "a hand-over holds at least one element")
        self.depth = depth
        self.spareLimit = spares
    }

    /// Producer: queues `element`, waiting while `depth` elements wait; throws the consumer's stop.
    public func put(_ element: Element) throws {
        condition.lock()
        defer { condition.unlock() }
        while waiting.count - head >= depth, stopped == nil { condition.wait() }
        if let stopped { throw stopped }
        waiting.append(element)
        condition.broadcast()
    }

    /// Producer: no element follows. With `failure`, the consumer's next `take` throws it, before any element still
    /// waiting (what follows a failure is not to be used).
    public func finish(failure: Error? = nil) {
        condition.lock()
        finished = true
        if self.failure == nil { self.failure = failure }
        condition.broadcast()
        condition.unlock()
    }

    /// Producer: no element follows; a failed `outcome` (the producing thread's) reaches the consumer as `finish(failure:)`.
    public func finish<Value>(after outcome: Result<Value, any Error>) {
        if case .failure(let error) = outcome { finish(failure: error) } else { finish() }
    }

    /// Consumer: the next element in the order put, waiting for it; nil once the producer has finished and every
    /// element was taken; throws the producer's failure.
    public func take() throws -> Element? {
        condition.lock()
        defer { condition.unlock() }
        consuming = false
        condition.broadcast()
        while head == waiting.count, !finished { condition.wait() }
        if let failure { throw failure }
        guard head < waiting.count, let element = waiting[head] else { return nil }
        waiting[head] = nil
        head += 1
        if head == waiting.count || head >= 64 {
            waiting.removeFirst(head)
            head = 0
        }
        consuming = true
        condition.broadcast()
        return element
    }

    /// Consumer: stops the producer, whose waiting or next `put` throws `error`. Idempotent: the first error stays.
    public func stop(_ error: Error = Stopped()) {
        condition.lock()
        if stopped == nil { stopped = error }
        consuming = false
        condition.broadcast()
        condition.unlock()
    }

    /// Producer: waits until the consumer has taken every queued element and asked for the next (so it is done with
    /// them), or has stopped; throws its stop.
    public func waitUntilConsumed() throws {
        condition.lock()
        defer { condition.unlock() }
        while head < waiting.count || consuming, stopped == nil { condition.wait() }
        if let stopped { throw stopped }
    }

    /// Consumer: waits until the producer has called `finish` (its last act), whatever it ended with.
    public func waitUntilFinished() {
        condition.lock()
        defer { condition.unlock() }
        while !finished { condition.wait() }
    }

    /// A spent element handed back by `recycle`, if one is kept.
    public func spare() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        return spares.popLast()
    }

    /// Hands a spent element back for reuse; dropped beyond `spares` kept.
    public func recycle(_ element: Element) {
        condition.lock()
        defer { condition.unlock() }
        if spares.count < spareLimit { spares.append(element) }
    }
}
