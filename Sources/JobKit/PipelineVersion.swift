import Foundation

/// The pipeline's version, printed by `--version` with the git commit the binary was built from.
public enum PipelineVersion {
    /// The release number (also on the report workbook's cover).
    public static let string = "0.1.0"

    /// The commit this binary was built from: the first line of `BUILD_COMMIT` in the share folder (written by
    /// `make install` for an installed binary, by `make build` / `make release` / `make test` as `.build/BUILD_COMMIT`
    /// in a build tree), or `unknown` when that file is absent.
    public static func commit(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard let share = try? ShareDirectory.current(environment: environment),
              let text = try? String(contentsOf: share.buildCommit, encoding: .utf8),
              let line = text.split(whereSeparator: \.isNewline).first.map({ $0.trimmingCharacters(in: .whitespaces) }),
              !line.isEmpty else { return "unknown" }
        return line
    }

    /// What `--version` prints after the job's name: `0.1.0 (commit 31158b7…)`.
    public static func description(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        "\(string) (commit \(commit(environment: environment)))"
    }
}
