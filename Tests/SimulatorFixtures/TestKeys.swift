import Foundation

/// Store API keys generated once per test run with the `openssl` command line, as a developer would make them:
/// an App Store Connect key (P-256, PKCS#8 PEM) and a Google service-account key (RSA 2048, PEM).
public enum TestKeys {
    public static let apple: Result<String, any Error> = Result {
        try openssl(["sh", "-c", "openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt"])
    }
    public static let google: Result<String, any Error> = Result {
        try openssl(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"])
    }

    /// Runs a command and returns its standard output.
    public static func openssl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
