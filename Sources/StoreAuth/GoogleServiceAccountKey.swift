import Crypto
import Foundation

/// The fields of a Google service-account key file that the OAuth JWT flow needs.
///
/// `description` never includes the private key.
public struct GoogleServiceAccountKey: Sendable, Decodable, CustomStringConvertible {
    /// Google's token endpoint, used when the file has no `token_uri`.
    public static let defaultTokenURI = "https://oauth2.googleapis.com/token"

    /// "service_account" in real files.
    public let type: String?
    /// The Google Cloud project.
    public let projectId: String?
    /// Sent as the JWT header `kid` when present.
    public let privateKeyId: String?
    /// PKCS#8 PEM; JSON decoding has already turned its `\n` escapes into newlines.
    public let privateKey: String
    /// The JWT `iss` claim.
    public let clientEmail: String
    /// The JWT `aud` claim and the URL the assertion is posted to.
    public let tokenURI: String

    enum CodingKeys: String, CodingKey {
        case type, projectId = "project_id", privateKeyId = "private_key_id", privateKey = "private_key"
        case clientEmail = "client_email", tokenURI = "token_uri"
    }

    /// Creates a key from its parts.
    public init(privateKey: String, clientEmail: String, tokenURI: String = GoogleServiceAccountKey.defaultTokenURI,
                privateKeyId: String? = nil, projectId: String? = nil, type: String? = "service_account") {
        self.type = type
        self.projectId = projectId
        self.privateKeyId = privateKeyId
        self.privateKey = privateKey
        self.clientEmail = clientEmail
        self.tokenURI = tokenURI
    }

    /// Decodes the JSON key file; `token_uri` defaults to Google's endpoint.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(String.self, forKey: .type)
        projectId = try container.decodeIfPresent(String.self, forKey: .projectId)
        privateKeyId = try container.decodeIfPresent(String.self, forKey: .privateKeyId)
        privateKey = try container.decode(String.self, forKey: .privateKey)
        clientEmail = try container.decode(String.self, forKey: .clientEmail)
        tokenURI = try container.decodeIfPresent(String.self, forKey: .tokenURI) ?? Self.defaultTokenURI
    }

    /// Parses the contents of a key file; the error names the problem, never the key.
    public init(jsonData: Data) throws {
        do {
            self = try JSONDecoder().decode(Self.self, from: jsonData)
        } catch let DecodingError.keyNotFound(key, _) {
            throw CryptoError.invalidKey("service-account key file has no \(key.stringValue)")
        } catch {
            throw CryptoError.invalidKey("service-account key file is not the expected JSON")
        }
    }

    /// Reads and parses a key file (refused unless mode 0600 or stricter).
    public init(file path: String) throws {
        try self.init(jsonData: try FileText.readPrivateKey(path))
    }

    /// Identifies the account without revealing the key.
    public var description: String {
        "GoogleServiceAccountKey(clientEmail: \(clientEmail), privateKeyId: \(privateKeyId ?? "-"), privateKey: <redacted>)"
    }
}
