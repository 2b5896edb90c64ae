import COpenSSL
import Crypto
import Foundation

/// A throwaway Apple-shaped P-256 chain (root → WWDR-like intermediate → receipt-signing leaf) for simulators and tests.
///
/// The root is self-signed with CA:TRUE; the intermediate is a CA carrying Apple's marker extension
/// 1.2.840.113635.100.6.2.1 and the leaf carries 1.2.840.113635.100.6.11.1, both as ASN.1 NULL, so
/// `AppleJWSVerifier` configured with `rootPEM` accepts what `leafSigner` signs with `x5c`.
/// Keys are fresh on every construction; names, serials and validity are fixed by the arguments.
public final class TestCertificateAuthority: Sendable {
    /// Default start of every certificate's validity: 2000-01-01T00:00:00Z (payload `signedDate`s may be old).
    public static let defaultValidFrom = Date(timeIntervalSince1970: 946_684_800)
    /// Default end of every certificate's validity: 2100-01-01T00:00:00Z.
    public static let defaultValidUntil = Date(timeIntervalSince1970: 4_102_444_800)

    /// The root certificate, DER.
    public let rootDER: Data
    /// The root certificate, PEM (what clients configure as their trusted root).
    public let rootPEM: String
    /// The intermediate certificate, DER.
    public let intermediateDER: Data
    /// The leaf certificate, DER.
    public let leafDER: Data
    /// Signs with the leaf's private key.
    public let leafSigner: ES256Signer

    /// Generates the three keys and certificates, all valid from `validFrom` until `validUntil`.
    public init(name: String = "Store Simulator", validFrom: Date = TestCertificateAuthority.defaultValidFrom,
                validUntil: Date = TestCertificateAuthority.defaultValidUntil) throws {
        let from = Int(validFrom.timeIntervalSince1970.rounded(.down))
        let until = Int(validUntil.timeIntervalSince1970.rounded(.down))
        guard from < until else { throw CryptoError.invalidArgument("validFrom must precede validUntil") }
        let rootKey = try EVPKey.generateP256()
        let intermediateKey = try EVPKey.generateP256()
        let leafKey = try EVPKey.generateP256()
        let caUsage: [(Int32, String)] = [
            (NID_basic_constraints, "critical,CA:TRUE"), (NID_key_usage, "critical,keyCertSign,cRLSign"),
            (NID_subject_key_identifier, "hash"),
        ]
        let root = try CertificateBuilder.issue(
            .init(commonName: "\(name) Root CA", serial: 1, notBefore: from, notAfter: until,
                  extensions: caUsage, nullMarkerOIDs: []),
            subjectKey: rootKey, issuer: nil)
        let intermediate = try CertificateBuilder.issue(
            .init(commonName: "\(name) Worldwide Developer Relations CA", serial: 2, notBefore: from, notAfter: until,
                  extensions: [(NID_basic_constraints, "critical,CA:TRUE,pathlen:0")] + caUsage.dropFirst()
                      + [(NID_authority_key_identifier, "keyid:always")],
                  nullMarkerOIDs: [AppleJWSVerifier.intermediateMarkerOID]),
            subjectKey: intermediateKey, issuer: (root, rootKey))
        let leaf = try CertificateBuilder.issue(
            .init(commonName: "\(name) App Store Receipt Signing", serial: 3, notBefore: from, notAfter: until,
                  extensions: [(NID_basic_constraints, "critical,CA:FALSE"), (NID_key_usage, "critical,digitalSignature"),
                               (NID_authority_key_identifier, "keyid:always")],
                  nullMarkerOIDs: [AppleJWSVerifier.leafMarkerOID]),
            subjectKey: leafKey, issuer: (intermediate, intermediateKey))
        rootDER = try CertificateBuilder.der(root)
        rootPEM = try CertificateBuilder.pem(root)
        intermediateDER = try CertificateBuilder.der(intermediate)
        leafDER = try CertificateBuilder.der(leaf)
        leafSigner = try ES256Signer(privateKeyPEM: leafKey.privateKeyPEM())
    }

    /// The JWS `x5c` header value: leaf, intermediate, root as standard base64 DER.
    public var x5c: [String] {
        [leafDER, intermediateDER, rootDER].map { Base64.standardEncoded($0) }
    }

    /// Writes the root PEM to `path` (creating parent folders), so clients can trust it.
    public func writeRootPEM(to path: String) throws {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(rootPEM.utf8).write(to: url, options: .atomic)
        } catch {
            throw CryptoError.unreadableFile(path: path, reason: "cannot write: \(error.localizedDescription)")
        }
    }
}
