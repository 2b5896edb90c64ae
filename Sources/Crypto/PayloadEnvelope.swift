/// The fields every Apple payload is checked on, read from the top level (transactions, renewal infos)
/// or from `data` / `summary` (notifications).
struct PayloadEnvelope: Decodable {
    /// bundleId, appAppleId and environment as found at one level.
    struct AppFields: Decodable {
        let bundleId: String?
        let appAppleId: Int64?
        let environment: String?

        init(bundleId: String?, appAppleId: Int64?, environment: String?) {
            self.bundleId = bundleId
            self.appAppleId = appAppleId
            self.environment = environment
        }

        init(members: [String: JSONValue]) throws {
            bundleId = try Self.string(members["bundleId"], "bundleId")
            environment = try Self.string(members["environment"], "environment")
            switch members["appAppleId"] ?? .null {
            case .null: appAppleId = nil
            case let .integer(value): appAppleId = value
            default: throw JSONTypeError("appAppleId is not an integer")
            }
        }

        private static func string(_ value: JSONValue?, _ name: String) throws -> String? {
            switch value ?? .null {
            case .null: return nil
            case let .string(text): return text
            default: throw JSONTypeError("\(name) is not a string")
            }
        }
    }

    /// Milliseconds since 1970, possibly fractional.
    let signedDate: Double?
    let topLevel: AppFields
    let data: AppFields?
    let summary: AppFields?

    enum CodingKeys: String, CodingKey {
        case signedDate, data, summary, bundleId, appAppleId, environment
    }

    /// Reads everything from one keyed container (each container re-indexes the object's keys).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        signedDate = try container.decodeIfPresent(Double.self, forKey: .signedDate)
        data = try container.decodeIfPresent(AppFields.self, forKey: .data)
        summary = try container.decodeIfPresent(AppFields.self, forKey: .summary)
        topLevel = AppFields(bundleId: try container.decodeIfPresent(String.self, forKey: .bundleId),
                             appAppleId: try container.decodeIfPresent(Int64.self, forKey: .appAppleId),
                             environment: try container.decodeIfPresent(String.self, forKey: .environment))
    }

    /// Reads the same fields from an already parsed payload, with the same type rules as `Decodable`.
    init(json: JSONValue) throws {
        guard case let .object(members) = json else { throw JSONTypeError("the payload is not an object") }
        switch members["signedDate"] ?? .null {
        case .null: signedDate = nil
        case let .integer(value): signedDate = Double(value)
        case let .number(value): signedDate = value
        default: throw JSONTypeError("signedDate is not a number")
        }
        topLevel = try AppFields(members: members)
        data = try Self.nested(members["data"], "data")
        summary = try Self.nested(members["summary"], "summary")
    }

    private static func nested(_ value: JSONValue?, _ name: String) throws -> AppFields? {
        switch value ?? .null {
        case .null: return nil
        case let .object(members): return try AppFields(members: members)
        default: throw JSONTypeError("\(name) is not an object")
        }
    }

    /// True for notification payloads (`data` or `summary` present).
    var isNotification: Bool { data != nil || summary != nil }

    /// The level holding the app fields.
    var app: AppFields { data ?? summary ?? topLevel }
}

/// A payload field of the wrong JSON type.
struct JSONTypeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The envelope and the caller's type decoded from one parse of the payload JSON.
struct EnvelopeAndValue<Value: Decodable>: Decodable {
    let envelope: PayloadEnvelope
    let value: Value

    init(from decoder: any Decoder) throws {
        envelope = try PayloadEnvelope(from: decoder)
        value = try Value(from: decoder)
    }
}
