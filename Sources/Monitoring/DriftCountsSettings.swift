import Foundation
import JobKit

/// The settings of one `drift-counts` run, from its options and environment; errors are usage or configuration errors.
struct DriftCountsSettings {
    let textfileFolder: URL?
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
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw JobError.configuration("the textfile folder '\(folder)' (--textfile-dir or DRIFT_TEXTFILE_DIR) does not exist")
            }
            textfileFolder = URL(fileURLWithPath: folder, isDirectory: true)
        } else {
            textfileFolder = nil
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
}
