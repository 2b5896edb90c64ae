import Foundation
import StoreAuth
import Testing
@testable import Crypto

/// Key loaders that take a path refuse a key file group or others may read, before parsing it.
@Suite struct PrivateKeyFileModeTests {
    static func file(mode: Int, contents: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString)")
        try Data(contents.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return url
    }

    /// True when `body` failed because of the file's mode (not its content).
    static func refusedForMode(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch CryptoError.unreadableFile(_, let reason) {
            return reason.contains("0600")
        } catch {
            return false
        }
    }

    @Test func aGroupReadableKeyFileIsRefusedAndAnOwnerOnlyOneIsParsed() throws {
        let open = try Self.file(mode: 0o644, contents: "not a key")
        let closed = try Self.file(mode: 0o600, contents: "not a key")
        defer { try? FileManager.default.removeItem(at: open); try? FileManager.default.removeItem(at: closed) }
        #expect(Self.refusedForMode { _ = try ES256Signer(privateKeyFile: open.path) })
        #expect(Self.refusedForMode { _ = try GoogleServiceAccountKey(file: open.path) })
        // Mode 0600 passes the check: what fails then is the content, which is not a key.
        #expect(!Self.refusedForMode { _ = try ES256Signer(privateKeyFile: closed.path) })
        #expect(throws: (any Error).self) { _ = try ES256Signer(privateKeyFile: closed.path) }
        #expect(!Self.refusedForMode { _ = try GoogleServiceAccountKey(file: closed.path) })
    }
}
