import Foundation

/// Assembles compact-serialised JWS/JWT strings: `base64url(header).base64url(payload).base64url(signature)`.
public enum CompactJWS {
    /// Signs already-serialised header and payload JSON and returns the compact JWS.
    public static func assemble(headerJSON: Data, payloadJSON: Data, signer: some JWTSigner) throws -> String {
        let signingInput = Base64.urlEncoded(headerJSON) + "." + Base64.urlEncoded(payloadJSON)
        let signature = try signer.sign(Data(signingInput.utf8))
        return signingInput + "." + Base64.urlEncoded(signature)
    }

    /// Encodes header and payload as compact JSON (sorted keys, unescaped slashes) and signs them.
    public static func encode(header: some Encodable, payload: some Encodable, signer: some JWTSigner) throws -> String {
        try assemble(headerJSON: json(header), payloadJSON: json(payload), signer: signer)
    }

    /// Compact, deterministic JSON for JOSE headers and claims.
    static func json(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            throw CryptoError.encoding(String(describing: error))
        }
    }
}
