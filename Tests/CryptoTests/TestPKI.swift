import Foundation
@testable import Crypto

/// Keys and certificates made once per test run with the `openssl` command line.
///
/// Real chain: root → intermediate (CA, OID …6.2.1) → leaf (OID …6.11.1); variants lack an OID, chain to a
/// rogue root, or expire. Everything is read into memory and the temporary directory is removed.
struct TestPKI: Sendable {
    static let shared: Result<TestPKI, any Error> = Result { try TestPKI() }

    /// Certificate validity of the root and intermediates (days) and of the leaves (days).
    static let caDays = 3650
    static let leafDays = 30

    let createdAt: Date
    let rootPEM: Data
    let rootDER: Data
    let rogueRootPEM: Data
    /// DER certificates by name: root, intermediate, leaf, leafNoOID, intermediateNoOID, leafUnderNoOID,
    /// rogueRoot, rogueIntermediate, rogueLeaf, and leafNoAKID (no Authority Key Identifier: valid only in
    /// OpenSSL's default mode, refused in strict X.509 mode).
    let certificates: [String: Data]
    let leafKeyPEM: String
    let leafPublicKeyPEM: String
    let rsaKeyPEM: String
    let rsaPublicKeyPEM: String

    private static let config = """
        [ req ]
        distinguished_name = dn
        prompt = no
        [ dn ]
        CN = unused
        [ root_ext ]
        basicConstraints = critical, CA:TRUE
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        [ int_ext ]
        basicConstraints = critical, CA:TRUE, pathlen:0
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        1.2.840.113635.100.6.2.1 = ASN1:NULL
        [ int_noid_ext ]
        basicConstraints = critical, CA:TRUE, pathlen:0
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        [ leaf_ext ]
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature
        authorityKeyIdentifier = keyid:always
        1.2.840.113635.100.6.11.1 = ASN1:NULL
        [ leaf_noakid_ext ]
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature
        subjectKeyIdentifier = none
        authorityKeyIdentifier = none
        1.2.840.113635.100.6.11.1 = ASN1:NULL
        [ leaf_noid_ext ]
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature
        authorityKeyIdentifier = keyid:always

        """

    init() throws {
        let dir = try OpenSSLTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        createdAt = Date()
        try Data(Self.config.utf8).write(to: dir.appendingPathComponent("ca.cnf"))
        let run = { (arguments: [String]) throws in _ = try OpenSSLTool.check(arguments, in: dir) }
        for name in ["root", "int", "leaf", "rogue"] {
            try run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "\(name).key"])
        }
        try run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "rsa.key"])
        func selfSigned(_ name: String, key: String, cn: String) throws {
            try run(["req", "-new", "-x509", "-config", "ca.cnf", "-extensions", "root_ext", "-key", key,
                     "-subj", "/CN=\(cn)", "-days", "\(Self.caDays)", "-out", "\(name).pem"])
        }
        var serial = 1
        func issued(_ name: String, key: String, cn: String, by issuer: String, issuerKey: String,
                    extensions: String, days: Int) throws {
            serial += 1
            try run(["req", "-new", "-x509", "-config", "ca.cnf", "-extensions", extensions, "-key", key,
                     "-subj", "/CN=\(cn)", "-CA", "\(issuer).pem", "-CAkey", issuerKey, "-set_serial", "\(serial)",
                     "-days", "\(days)", "-out", "\(name).pem"])
        }
        try selfSigned("root", key: "root.key", cn: "Test Root CA")
        try selfSigned("rogueRoot", key: "rogue.key", cn: "Rogue Root CA")
        try issued("intermediate", key: "int.key", cn: "Test Intermediate", by: "root", issuerKey: "root.key",
                   extensions: "int_ext", days: Self.caDays)
        try issued("intermediateNoOID", key: "int.key", cn: "Test Intermediate Without OID", by: "root",
                   issuerKey: "root.key", extensions: "int_noid_ext", days: Self.caDays)
        try issued("rogueIntermediate", key: "int.key", cn: "Rogue Intermediate", by: "rogueRoot",
                   issuerKey: "rogue.key", extensions: "int_ext", days: Self.caDays)
        let leaves = [("leaf", "intermediate", "leaf_ext"), ("leafNoOID", "intermediate", "leaf_noid_ext"),
                      ("leafUnderNoOID", "intermediateNoOID", "leaf_ext"), ("rogueLeaf", "rogueIntermediate", "leaf_ext"),
                      ("leafNoAKID", "intermediate", "leaf_noakid_ext")]
        for (name, issuer, extensions) in leaves {
            try issued(name, key: "leaf.key", cn: "Test Leaf \(name)", by: issuer, issuerKey: "int.key",
                       extensions: extensions, days: Self.leafDays)
        }
        var certificates: [String: Data] = [:]
        for name in ["root", "intermediate", "leaf", "leafNoOID", "intermediateNoOID", "leafUnderNoOID",
                     "rogueRoot", "rogueIntermediate", "rogueLeaf", "leafNoAKID"] {
            try run(["x509", "-in", "\(name).pem", "-outform", "DER", "-out", "\(name).der"])
            certificates[name] = try Data(contentsOf: dir.appendingPathComponent("\(name).der"))
        }
        try run(["pkey", "-in", "leaf.key", "-pubout", "-out", "leaf.pub"])
        try run(["pkey", "-in", "rsa.key", "-pubout", "-out", "rsa.pub"])
        let text = { (file: String) throws in try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8) }
        self.certificates = certificates
        rootPEM = try Data(contentsOf: dir.appendingPathComponent("root.pem"))
        rootDER = certificates["root"] ?? Data()
        rogueRootPEM = try Data(contentsOf: dir.appendingPathComponent("rogueRoot.pem"))
        leafKeyPEM = try text("leaf.key")
        leafPublicKeyPEM = try text("leaf.pub")
        rsaKeyPEM = try text("rsa.key")
        rsaPublicKeyPEM = try text("rsa.pub")
    }

    /// The x5c array (standard base64) for certificates named leaf-first.
    func x5c(_ names: [String]) -> [String] {
        names.map { Base64.standardEncoded(certificates[$0] ?? Data()) }
    }
}
