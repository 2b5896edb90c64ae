/// One claimed work item of a run.
public struct RequeryWorkItem: Sendable, Hashable {
    public let id: Int64
    public let subscriptionId: String
    public let category: RequeryCategory
    public let isTest: Bool
}
