import COpenSSL
import Foundation

/// Converts ECDSA signatures between OpenSSL's DER `ECDSA-Sig-Value` and JOSE's raw fixed-width r‖s.
public enum ECDSASignature {
    /// Raw r‖s (each left-padded to `componentLength` bytes; 32 for P-256) from a DER signature.
    public static func raw(fromDER der: [UInt8], componentLength: Int = 32) throws -> Data {
        var cursor: UnsafePointer<UInt8>? = nil
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw OpenSSLErrorQueue.error("d2i_ECDSA_SIG") }
        defer { ECDSA_SIG_free(signature) }
        var output = [UInt8](repeating: 0, count: 2 * componentLength)
        let ok = output.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return BN_bn2binpad(ECDSA_SIG_get0_r(signature), base, Int32(componentLength)) == Int32(componentLength)
                && BN_bn2binpad(ECDSA_SIG_get0_s(signature), base + componentLength, Int32(componentLength)) == Int32(componentLength)
        }
        guard ok else { throw OpenSSLErrorQueue.error("BN_bn2binpad") }
        return Data(output)
    }

    /// A DER signature from raw r‖s (two equal halves), as `EVP_DigestVerify` expects.
    public static func der(fromRaw raw: some Collection<UInt8>) throws -> [UInt8] {
        let bytes = Array(raw)
        guard !bytes.isEmpty, bytes.count % 2 == 0 else {
            throw CryptoError.invalidArgument("raw ECDSA signature must have two equal halves, got \(bytes.count) bytes")
        }
        let half = bytes.count / 2
        guard let signature = ECDSA_SIG_new() else { throw OpenSSLErrorQueue.error("ECDSA_SIG_new") }
        defer { ECDSA_SIG_free(signature) }
        let r = bytes.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32(half), nil) }
        let s = bytes.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress.map { $0 + half }, Int32(half), nil) }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            // Ownership passes to the signature only when set0 succeeds.
            BN_free(r)
            BN_free(s)
            throw OpenSSLErrorQueue.error("ECDSA_SIG_set0")
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { throw OpenSSLErrorQueue.error("i2d_ECDSA_SIG") }
        var output = [UInt8](repeating: 0, count: Int(length))
        let written = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        guard written == length else { throw OpenSSLErrorQueue.error("i2d_ECDSA_SIG") }
        return output
    }
}
