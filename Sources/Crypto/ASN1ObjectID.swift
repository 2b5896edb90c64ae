import COpenSSL

/// An OpenSSL `ASN1_OBJECT` made from a dotted OID, owned by this object and freed once in `deinit`.
package final class ASN1ObjectID: @unchecked Sendable {
    package let pointer: OpaquePointer
    /// The dotted form, e.g. "1.2.840.113635.100.6.11.1".
    let dotted: String

    /// Parses a dotted numeric OID (names are not accepted).
    package init(_ dotted: String) throws {
        guard let object = OBJ_txt2obj(dotted, 1) else { throw OpenSSLErrorQueue.error("OBJ_txt2obj(\(dotted))") }
        self.pointer = object
        self.dotted = dotted
    }

    deinit {
        ASN1_OBJECT_free(pointer)
    }
}
