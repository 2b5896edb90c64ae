import Foundation
import JobKit
import Testing

/// `OutputFile.place`: whatever mode the temporary file was created with (the process's umask decides it), the
/// placed file is 0640; a failed rename leaves neither the temporary file nor a final one, and names both paths.
struct OutputFileTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("output-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func create(_ url: URL, mode: mode_t) {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL, mode)
        _ = "a,b\n".withCString { write(descriptor, $0, 4) }
        fchmod(descriptor, mode)
        close(descriptor)
    }

    @Test(arguments: [mode_t(0o600), 0o644, 0o666])
    func aPlacedFileIsOwnerReadWriteGroupRead(created: mode_t) throws {
        let folder = try Self.folder()
        let temporary = folder.appendingPathComponent(".out.csv.partial"), final = folder.appendingPathComponent("out.csv")
        Self.create(temporary, mode: created)
        try OutputFile.place(temporary, at: final)
        let attributes = try FileManager.default.attributesOfItem(atPath: final.path)
        #expect(attributes[.posixPermissions] as? Int == 0o640)
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
        #expect(try String(contentsOf: final, encoding: .utf8) == "a,b\n")
    }

    @Test func aFailedRenameRemovesTheTemporaryFileAndNamesThePaths() throws {
        let folder = try Self.folder()
        let temporary = folder.appendingPathComponent(".out.csv.partial")
        let final = folder.appendingPathComponent("missing-folder/out.csv")
        Self.create(temporary, mode: 0o600)
        #expect {
            try OutputFile.place(temporary, at: final)
        } throws: { error in
            "\(error)".contains("rename \(temporary.path) to \(final.path)")
        }
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
    }
}
