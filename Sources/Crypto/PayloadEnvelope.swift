import BillingCore

/// The fields every Apple payload is checked on: its dates, the markers that say which kind it is, and the app
/// fields of each kind where that kind keeps them (see `ApplePayloadKind`).
struct PayloadEnvelope: Decodable {
    /// bundleId, appAppleId and environment as found at one level.
    struct AppFields: Equatable {
        let bundleId: String?
        let appAppleId: Int64?
        let environment: String?

        /// The fields nobody sent.
        static let none = AppFields(bundleId: nil, appAppleId: nil, environment: nil)
    }

    /// One nested object (`data`, `summary`, `appData`, `externalPurchaseToken`): the app fields it may hold.
    struct Nested: Decodable {
        let bundleId: String?
        let appAppleId: Int64?
        let environment: String?
        let externalPurchaseId: String?

        init(members: [String: JSONValue]) throws {
            bundleId = try PayloadEnvelope.string(members["bundleId"], "bundleId")
            environment = try PayloadEnvelope.string(members["environment"], "environment")
            externalPurchaseId = try PayloadEnvelope.string(members["externalPurchaseId"], "externalPurchaseId")
            appAppleId = try PayloadEnvelope.integer(members["appAppleId"], "appAppleId")
        }

        /// The app fields as stated.
        var fields: AppFields { AppFields(bundleId: bundleId, appAppleId: appAppleId, environment: environment) }

        /// The app fields of an `externalPurchaseToken`, whose environment is implied by its id, as in Apple's library.
        var externalPurchaseFields: AppFields {
            let sandbox = externalPurchaseId?.hasPrefix("SANDBOX") == true
            return AppFields(bundleId: bundleId, appAppleId: appAppleId,
                             environment: sandbox ? AppleEnvironment.sandbox.rawValue : AppleEnvironment.production.rawValue)
        }
    }

    /// Milliseconds since 1970, possibly fractional.
    let signedDate: Double?
    /// An app transaction's `receiptCreationDate` (Apple's library uses it as the app transaction's signed date).
    let receiptCreationDate: Double?
    /// bundleId, appAppleId, environment at the top level.
    let topLevel: AppFields
    /// An app transaction's environment.
    let receiptType: String?
    let data: Nested?
    let summary: Nested?
    let appData: Nested?
    let externalPurchaseToken: Nested?
    /// The kinds whose marker fields the payload carries (normally exactly one).
    let markers: Set<ApplePayloadKind>

    enum CodingKeys: String, CodingKey {
        case signedDate, receiptCreationDate, data, summary, appData, externalPurchaseToken
        case bundleId, appAppleId, environment, receiptType
        case notificationType, transactionId, autoRenewStatus, autoRenewProductId
    }

    /// Reads everything from one keyed container (each container re-indexes the object's keys).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        signedDate = try container.decodeIfPresent(Double.self, forKey: .signedDate)
        receiptCreationDate = try container.decodeIfPresent(Double.self, forKey: .receiptCreationDate)
        data = try container.decodeIfPresent(Nested.self, forKey: .data)
        summary = try container.decodeIfPresent(Nested.self, forKey: .summary)
        appData = try container.decodeIfPresent(Nested.self, forKey: .appData)
        externalPurchaseToken = try container.decodeIfPresent(Nested.self, forKey: .externalPurchaseToken)
        topLevel = AppFields(bundleId: try container.decodeIfPresent(String.self, forKey: .bundleId),
                             appAppleId: try container.decodeIfPresent(Int64.self, forKey: .appAppleId),
                             environment: try container.decodeIfPresent(String.self, forKey: .environment))
        receiptType = try container.decodeIfPresent(String.self, forKey: .receiptType)
        func present(_ key: CodingKeys) -> Bool {
            container.contains(key) && (try? container.decodeNil(forKey: key)) == false
        }
        markers = Self.markers(present: present)
    }

    /// Reads the same fields from an already parsed payload, with the same type rules as `Decodable`.
    init(json: JSONValue) throws {
        guard case let .object(members) = json else { throw JSONTypeError("the payload is not an object") }
        signedDate = try Self.number(members["signedDate"], "signedDate")
        receiptCreationDate = try Self.number(members["receiptCreationDate"], "receiptCreationDate")
        topLevel = AppFields(bundleId: try Self.string(members["bundleId"], "bundleId"),
                             appAppleId: try Self.integer(members["appAppleId"], "appAppleId"),
                             environment: try Self.string(members["environment"], "environment"))
        receiptType = try Self.string(members["receiptType"], "receiptType")
        data = try Self.nested(members["data"], "data")
        summary = try Self.nested(members["summary"], "summary")
        appData = try Self.nested(members["appData"], "appData")
        externalPurchaseToken = try Self.nested(members["externalPurchaseToken"], "externalPurchaseToken")
        markers = Self.markers(present: { (members[$0.rawValue] ?? .null) != .null })
    }

    /// The kinds whose marker fields `present` reports.
    private static func markers(present: (CodingKeys) -> Bool) -> Set<ApplePayloadKind> {
        var kinds: Set<ApplePayloadKind> = []
        if present(.notificationType) { kinds.insert(.notification) }
        if present(.transactionId) { kinds.insert(.transaction) }
        if present(.autoRenewStatus) || present(.autoRenewProductId) { kinds.insert(.renewalInfo) }
        if present(.receiptType) || present(.receiptCreationDate) { kinds.insert(.appTransaction) }
        return kinds
    }

    /// The one kind the payload's markers name; nil when they name none or several.
    var shapeKind: ApplePayloadKind? { markers.count == 1 ? markers.first : nil }

    /// True when the payload is of `kind` and of no other kind.
    func isKind(_ kind: ApplePayloadKind) -> Bool { markers == [kind] }

    /// The app fields of `kind`, read where that kind keeps them.
    func app(for kind: ApplePayloadKind) -> AppFields {
        switch kind {
        case .transaction, .renewalInfo:
            return topLevel
        case .appTransaction:
            return AppFields(bundleId: topLevel.bundleId, appAppleId: topLevel.appAppleId, environment: receiptType)
        case .notification:
            if let data { return data.fields }
            if let summary { return summary.fields }
            if let appData { return appData.fields }
            if let externalPurchaseToken { return externalPurchaseToken.externalPurchaseFields }
            return .none
        }
    }

    /// The payload's signing instant in milliseconds: `signedDate`, or for an app transaction without one its
    /// `receiptCreationDate`; nil when absent.
    func signingMilliseconds(for kind: ApplePayloadKind) -> Double? {
        signedDate ?? (kind == .appTransaction ? receiptCreationDate : nil)
    }

    private static func nested(_ value: JSONValue?, _ name: String) throws -> Nested? {
        switch value ?? .null {
        case .null: return nil
        case let .object(members): return try Nested(members: members)
        default: throw JSONTypeError("\(name) is not an object")
        }
    }

    fileprivate static func string(_ value: JSONValue?, _ name: String) throws -> String? {
        switch value ?? .null {
        case .null: return nil
        case let .string(text): return text
        default: throw JSONTypeError("\(name) is not a string")
        }
    }

    fileprivate static func integer(_ value: JSONValue?, _ name: String) throws -> Int64? {
        switch value ?? .null {
        case .null: return nil
        case let .integer(value): return value
        default: throw JSONTypeError("\(name) is not an integer")
        }
    }

    private static func number(_ value: JSONValue?, _ name: String) throws -> Double? {
        switch value ?? .null {
        case .null: return nil
        case let .integer(value): return Double(value)
        case let .number(value): return value
        default: throw JSONTypeError("\(name) is not a number")
        }
    }
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
