#if canImport(Glibc)
import Glibc
#endif

/// The permission bits of a secret file, following symbolic links (a mounted secret is often a link).
enum SecretFileMode {
    /// The mode's permission bits, or nil when the file cannot be stat'ed.
    static func permissions(_ path: String) -> UInt32? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode) & 0o777
    }

    /// Why `path` is refused as the secret `variable` names, or nil when only its owner can read or write it.
    /// The message names the variable, the file and its mode; never the content.
    static func refusal(variable: String, path: String) -> String? {
        guard let mode = permissions(path), mode & 0o077 != 0 else { return nil }
        return "\(variable) names '\(path)', which is readable or writable by group or others (mode 0\(String(mode, radix: 8))); "
            + "a secret file must be mode 0600 or stricter: chmod 600 '\(path)'"
    }
}
