/// The `action` of a client ingest request; both go through the same projection.
public enum IngestAction: String, Sendable, Hashable, CaseIterable {
    case purchase
    case restore
}
