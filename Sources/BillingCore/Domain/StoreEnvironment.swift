/// Whether store data comes from a real purchase or a sandbox / licence-tester purchase.
public enum StoreEnvironment: String, Sendable, Hashable, Codable, CaseIterable {
    case production = "PRODUCTION"
    case sandbox = "SANDBOX"
}
