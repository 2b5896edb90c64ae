import Foundation
import JobKit
import Testing

/// Secret files (keys, PGPASSFILE) are refused when group or others may read or write them, with a message naming
/// the variable and the file, never the content; owner-only files (followed through symbolic links) are read.
@Suite struct SecretFileTests {
    static let secret = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgs3cr3t\n-----END PRIVATE KEY-----\n"

    /// A fresh temporary file holding `secret` with `mode`.
    static func file(mode: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString).p8")
        try Data(secret.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return url
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660, 0o666, 0o700 | 0o001])
    func aFileOthersMayReadIsRefusedNamingTheVariable(mode: Int) throws {
        let url = try Self.file(mode: mode)
        defer { try? FileManager.default.removeItem(at: url) }
        let environment = JobEnvironment(["APPLE_PRIVATE_KEY_FILE": url.path])
        let error = #expect(throws: JobError.self) { try environment.secretFromFile("APPLE_PRIVATE_KEY_FILE", purpose: "key") }
        #expect(error?.exitCode == .usageOrConfiguration)
        let message = error?.description ?? ""
        #expect(message.contains("APPLE_PRIVATE_KEY_FILE"))
        #expect(message.contains(url.path))
        #expect(message.contains("0" + String(mode, radix: 8)))
        #expect(!message.contains("PRIVATE KEY-----") && !message.contains("s3cr3t"), "the message never carries the content")
    }

    @Test(arguments: [0o600, 0o400])
    func anOwnerOnlyFileIsRead(mode: Int) throws {
        let url = try Self.file(mode: mode)
        defer { try? FileManager.default.removeItem(at: url) }
        let environment = JobEnvironment(["GOOGLE_SERVICE_ACCOUNT_FILE": url.path])
        #expect(try environment.secretFromFile("GOOGLE_SERVICE_ACCOUNT_FILE", purpose: "key") == Data(Self.secret.utf8))
    }

    @Test func aSymbolicLinkIsJudgedByTheFileItNames() throws {
        let target = try Self.file(mode: 0o600)
        let link = target.deletingLastPathComponent().appendingPathComponent("link-\(UUID().uuidString).p8")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        defer { try? FileManager.default.removeItem(at: link); try? FileManager.default.removeItem(at: target) }
        let environment = JobEnvironment(["APPLE_PRIVATE_KEY_FILE": link.path])
        #expect(try environment.secretFromFile("APPLE_PRIVATE_KEY_FILE", purpose: "key") == Data(Self.secret.utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
        #expect(throws: JobError.self) { try environment.secretFromFile("APPLE_PRIVATE_KEY_FILE", purpose: "key") }
    }

    @Test func aWorldReadablePasswordFileIsRefused() throws {
        let url = try Self.file(mode: 0o644)
        defer { try? FileManager.default.removeItem(at: url) }
        let open = JobEnvironment(["PGDATABASE": "billing", "PGPASSFILE": url.path])
        let error = #expect(throws: JobError.self) { try open.databaseConfiguration(applicationName: "t") }
        #expect(error?.exitCode == .usageOrConfiguration)
        #expect(error?.description.contains("PGPASSFILE") == true)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        #expect(throws: Never.self) { try open.databaseConfiguration(applicationName: "t") }
    }
}
