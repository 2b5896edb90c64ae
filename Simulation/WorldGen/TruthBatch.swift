import Dispatch
import Foundation
import StoreTruth

/// One batch of subscriptions with its store truth already encoded as truth-folder lines (in parallel).
struct TruthBatch {
    /// One Apple notification line and its place in the truth's notification order.
    struct NotificationKey: Comparable {
        var signedDate: Int64
        var index: Int
        var position: Int
        /// The line's length in bytes (LF included).
        var length: Int

        static func < (a: NotificationKey, b: NotificationKey) -> Bool {
            (a.signedDate, a.index, a.position) < (b.signedDate, b.index, b.position)
        }
    }

    var subscriptions: [WorldSubscription]
    /// `apple-subscriptions.jsonl` lines, in subscription order.
    var appleSubscriptions: [UInt8] = []
    /// `google-subscriptions.jsonl` lines, in subscription order.
    var googleSubscriptions: [UInt8] = []
    /// `apple-notifications.jsonl` lines of the batch, sorted by `keys`.
    var notifications: [UInt8] = []
    var keys: [NotificationKey] = []

    /// Encodes the truth of `subscriptions` on every core.
    init(_ subscriptions: [WorldSubscription]) {
        self.subscriptions = subscriptions
        let workers = max(ProcessInfo.processInfo.activeProcessorCount, 1)
        let stride = max((subscriptions.count + workers * 4 - 1) / (workers * 4), 1)
        let chunkCount = (subscriptions.count + stride - 1) / stride
        let parts = ChunkBox(count: chunkCount)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            var part = TruthChunk()
            for subscription in subscriptions[(chunk * stride)..<min((chunk + 1) * stride, subscriptions.count)] {
                if let apple = subscription.apple { StoreTruthLines.append(apple, to: &part.apple) }
                for token in subscription.googleTokens { StoreTruthLines.append(token, to: &part.google) }
                for (position, notification) in subscription.appleNotifications.enumerated() {
                    var line: [UInt8] = []
                    StoreTruthLines.append(notification, to: &line)
                    part.notifications.append((NotificationKey(signedDate: notification.payload["signedDate"]?.int64Value ?? 0,
                                                               index: subscription.index, position: position, length: line.count), line))
                }
            }
            parts.set(chunk, part)
        }
        var all: [(NotificationKey, [UInt8])] = []
        for part in parts.items {
            appleSubscriptions += part.apple
            googleSubscriptions += part.google
            all += part.notifications
        }
        all.sort { $0.0 < $1.0 }
        notifications.reserveCapacity(all.reduce(0) { $0 + $1.1.count })
        for (key, line) in all {
            keys.append(key)
            notifications += line
        }
    }
}

/// The lines one worker encoded.
struct TruthChunk {
    var apple: [UInt8] = []
    var google: [UInt8] = []
    var notifications: [(TruthBatch.NotificationKey, [UInt8])] = []
}

/// Collects the parallel chunks by position.
final class ChunkBox: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [TruthChunk]

    init(count: Int) { parts = Array(repeating: TruthChunk(), count: count) }

    func set(_ position: Int, _ part: TruthChunk) { lock.lock(); parts[position] = part; lock.unlock() }
    var items: [TruthChunk] { lock.lock(); defer { lock.unlock() }; return parts }
}
