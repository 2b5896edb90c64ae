import Crypto

extension JSONValue {
    /// The member `key` as text, whether the payload spells it as a string or a number.
    func text(_ key: String) -> String? {
        switch self[key] {
        case let .string(value)?: return value
        case let .integer(value)?: return String(value)
        default: return nil
        }
    }

    /// The member `key` as an integer, whether spelled as a number or a decimal string.
    func integer(_ key: String) -> Int64? {
        switch self[key] {
        case let .integer(value)?: return value
        case let .number(value)?: return Int64(exactly: value.rounded(.down))
        case let .string(value)?: return Int64(value)
        default: return nil
        }
    }

    /// A copy of this object with `key` set to `value` (unchanged when this is not an object).
    func setting(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case var .object(members) = self else { return self }
        members[key] = value
        return .object(members)
    }

    /// The members of an object, or nil.
    var members: [String: JSONValue]? {
        if case let .object(members) = self { return members }
        return nil
    }

    /// The elements of an array, or nil.
    var arrayValue: [JSONValue]? {
        if case let .array(elements) = self { return elements }
        return nil
    }
}
