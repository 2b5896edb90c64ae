import Foundation

extension JSONValue {
    /// Parses JSON text strictly (RFC 8259; duplicate keys and invalid UTF-8 rejected).
    public static func parse(_ data: Data) throws -> JSONValue {
        do {
            return try JSONParser.parse(data)
        } catch let error as JSONParser.SyntaxError {
            throw CryptoError.invalidArgument("not JSON: \(error)")
        }
    }
}
