import Foundation

extension CompactJWS {
    /// The decoded claims (the middle, base64url part) of a compact JWS, read with the verifier's JSON parser;
    /// nil when it is not three parts or the middle is not base64url JSON. Checks no signature: use it only on a
    /// JWS that was already verified.
    public static func claims(_ jws: String) -> JSONValue? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Base64.decodeURL(parts[1]) else { return nil }
        return try? JSONValue.parse(data)
    }
}
