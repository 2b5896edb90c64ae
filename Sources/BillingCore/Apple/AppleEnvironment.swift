/// The App Store environment a payload was signed in.
public enum AppleEnvironment: String, Sendable, Hashable, CaseIterable {
    case sandbox = "Sandbox"
    case production = "Production"
    case xcode = "Xcode"
    case localTesting = "LocalTesting"

    /// The pipeline's environment: everything but Production is a sandbox.
    public var storeEnvironment: StoreEnvironment { self == .production ? .production : .sandbox }
}
