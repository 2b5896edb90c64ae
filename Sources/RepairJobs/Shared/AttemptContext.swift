import StoreAccess
import StoreCalls

/// The subscription and recorder of the store call in progress on this thread, so the shared clients' observer
/// can tag each attempt (one `store_query` row) with the subscription it was made for.
enum AttemptContext {
    @TaskLocal static var subscriptionId: String?
    @TaskLocal static var recorder: StoreQueryRecorder?

    /// The observer handed to the store clients.
    static let observer: @Sendable (StoreCallAttempt) -> Void = { attempt in
        recorder?.record(attempt, subscriptionId: subscriptionId)
    }
}
