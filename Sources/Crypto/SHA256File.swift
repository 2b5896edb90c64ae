import COpenSSL
import Foundation

extension SHA256Digest {
    /// The SHA-256 of the file at `path` as 64 lower-case hex digits, read in 1 MiB chunks (never whole), or nil
    /// when it cannot be read.
    public static func hex(fileAt path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path), let context = EVP_MD_CTX_new() else { return nil }
        defer {
            EVP_MD_CTX_free(context)
            try? handle.close()
        }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { return nil }
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { return nil }
            guard let data = chunk, !data.isEmpty else { break }
            let updated = data.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
            guard updated == 1 else { return nil }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { return nil }
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }
}
