import Foundation
/// One subscription chosen for re-query, with its highest category.
public struct SelectedSubscription: Sendable, Hashable {
    public let subscriptionId: String
    public let category: RequeryCategory
    public let isTest: Bool
}
