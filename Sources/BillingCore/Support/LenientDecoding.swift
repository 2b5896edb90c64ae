/// Decoding helpers for numbers that Google sends either as JSON numbers or as strings.
extension KeyedDecodingContainer {
    /// Decodes an Int64 given as a number or a decimal string; nil when absent or null.
    func decodeLenientInt64IfPresent(forKey key: Key) throws -> Int64? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let number = try? decode(Int64.self, forKey: key) { return number }
        let text = try decode(String.self, forKey: key)
        guard let value = Money.parseInt64(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\"\(text)\" is not an integer")
        }
        return value
    }

    /// Decodes an Int given as a number or a decimal string; nil when absent or null.
    func decodeLenientIntIfPresent(forKey key: Key) throws -> Int? {
        guard let value = try decodeLenientInt64IfPresent(forKey: key) else { return nil }
        guard let narrowed = Int(exactly: value) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\(value) does not fit in Int")
        }
        return narrowed
    }
}
