import Foundation

/// The SQL migration files of a folder, in version order (JobKit's `Migrator.shippedFiles` finds the folder).
public enum MigrationFiles {
    /// A migration file's version, name and text.
    public struct File: Sendable, Equatable {
        public let version: Int
        public let name: String
        public let sql: String
    }

    /// Why the migrations cannot be read.
    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads every `NNNN_name.sql` in `folder`; a file whose name lacks a version, or a repeated version, is an error.
    public static func load(from folder: URL) throws -> [File] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }
        var files: [File] = []
        for name in names {
            guard let version = Int(name.prefix { $0.isNumber }), name.first?.isNumber == true else {
                throw LoadError(description: "migration file '\(name)' does not start with a version number")
            }
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            guard let sql = String(data: data, encoding: .utf8) else {
                throw LoadError(description: "migration file '\(name)' is not UTF-8")
            }
            files.append(File(version: version, name: name, sql: sql))
        }
        files.sort { $0.version < $1.version }
        for (previous, next) in zip(files, files.dropFirst()) where previous.version == next.version {
            throw LoadError(description: "migration files '\(previous.name)' and '\(next.name)' share version \(next.version)")
        }
        return files
    }
}
