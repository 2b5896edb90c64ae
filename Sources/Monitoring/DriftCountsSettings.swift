import Foundation
import JobKit

/// The settings of one `drift-counts` run, from its options and environment; errors are usage or configuration errors.
struct DriftCountsSettings {
    /// Where the .prom file goes: the option, else `DRIFT_TEXTFILE_DIR`, else Debian's node_exporter folder when it exists.
    let textfileFolder: URL?
    /// The default folder, when neither the option nor the variable named one and it does not exist (nothing written).
    let missingDefaultFolder: String?
    let jsonFile: URL?
    let rules: [ThresholdRule]
    let pendingHours: Int

    init(_ arguments: JobArguments, _ environment: JobEnvironment) throws {
        if let text = arguments.values["pending-hours"] {
            guard let hours = Int(text), hours > 0 else { throw JobError.usage("--pending-hours must be a positive whole number, not '\(text)'") }
            pendingHours = hours
        } else {
            pendingHours = DriftCounts.defaultPendingHours
        }
        if let folder = arguments.values["textfile-dir"] ?? environment.optional("DRIFT_TEXTFILE_DIR") {
            guard Self.isFolder(folder) else {
                throw JobError.configuration("the textfile folder '\(folder)' (--textfile-dir or DRIFT_TEXTFILE_DIR) does not exist")
            }
            textfileFolder = URL(fileURLWithPath: folder, isDirectory: true)
            missingDefaultFolder = nil
        } else if Self.isFolder(DriftCounts.defaultTextfileFolder) {
            textfileFolder = URL(fileURLWithPath: DriftCounts.defaultTextfileFolder, isDirectory: true)
            missingDefaultFolder = nil
        } else {
            textfileFolder = nil
            missingDefaultFolder = DriftCounts.defaultTextfileFolder
        }
        jsonFile = arguments.values["json"].map { URL(fileURLWithPath: $0) }
        if let path = arguments.values["thresholds"] ?? environment.optional("DRIFT_THRESHOLDS_FILE") {
            do {
                rules = try ThresholdFile.load(path: path)
            } catch {
                throw JobError.configuration("\(error) (\(path))")
            }
        } else {
            rules = []
        }
    }

    private static func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }
}
