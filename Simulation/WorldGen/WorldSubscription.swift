import Crypto
import StoreTruth

/// Everything generated for one subscription: its account, store truth, database rows and faults.
struct WorldSubscription {
    let index: Int
    let userId: String
    let accountId: String
    let accountToken: String
    let createdMs: Int64
    var apple: AppleSubscriptionTruth?
    var appleNotifications: [AppleNotificationTruth] = []
    var googleTokens: [GoogleSubscriptionTruth] = []
    var googleVoided: [JSONValue] = []
    var rows: LedgerRows
    var faults: [InjectedFault] = []
    /// The story the subscription was rendered from (the world's own record of what happened, for expected metrics).
    var story: Story?
}
