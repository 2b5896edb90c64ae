import Foundation
import JobKit

/// Output files written under temporary names in their final folder and renamed into place only when every one of
/// them is complete, so a final name never holds a half-written file; `discard()` removes the temporary ones.
final class StagedFiles {
    private(set) var staged: [(temporary: URL, final: URL)] = []
    let folder: URL

    /// Files staged in `folder` (created if needed).
    init(folder: URL) throws {
        self.folder = folder
        try FileSystemError.perform("create the folder", folder.path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    /// The temporary path for final file `name`: `.<name>.partial-<pid>` in the same folder (same file system, so
    /// the rename is atomic).
    func stage(_ name: String) -> URL {
        let final = folder.appendingPathComponent(name)
        let temporary = folder.appendingPathComponent(".\(name).partial-\(getpid())")
        staged.append((temporary, final))
        return temporary
    }

    /// Writes `bytes` to the temporary file of `name`.
    func write(_ bytes: [UInt8], as name: String) throws {
        let path = stage(name)
        try FileSystemError.perform("write", path.path) { try Data(bytes).write(to: path) }
    }

    /// Puts every staged file in place under its final name, mode 0640 (`OutputFile`).
    func commit() throws {
        for (temporary, final) in staged {
            try OutputFile.place(temporary, at: final)
        }
        staged.removeAll()
    }

    /// Removes every staged file not yet committed.
    func discard() {
        for (temporary, _) in staged { try? FileManager.default.removeItem(at: temporary) }
        staged.removeAll()
    }
}
