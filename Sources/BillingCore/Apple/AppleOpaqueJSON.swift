/// A JSON value kept as Apple sent it, for payload parts no projection reads yet (e.g. `advancedCommerceInfo`).
public indirect enum AppleOpaqueJSON: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    /// An integral number that fits `Int64` (dates in ms, prices in milliunits).
    case integer(Int64)
    /// Any other number.
    case number(Double)
    case string(String)
    case array([AppleOpaqueJSON])
    case object([String: AppleOpaqueJSON])

    /// Decodes any JSON value, preferring `integer` for integral numbers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AppleOpaqueJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AppleOpaqueJSON].self))
        }
    }

    /// The member `key` of an object, nil otherwise.
    public subscript(key: String) -> AppleOpaqueJSON? {
        if case let .object(members) = self { return members[key] }
        return nil
    }
}
