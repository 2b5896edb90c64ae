import Foundation

/// The `store-simulator` command line, parsed.
public struct SimulatorCommandLine: Sendable {
    /// The truth folder (`StoreTruthFolder` layout).
    public var truthFolder = ""
    /// Port to listen on; 0 lets the kernel choose.
    public var port: UInt16 = 0
    /// Where to write the root certificate; a fresh temporary file when nil.
    public var rootCertificateOutput: String?
    /// Everything else; `rootCertificateOutput` and `reportsFolder` are filled by `SimulatorRunner`.
    public var configuration = SimulatorConfiguration()
    /// `--help` was given.
    public var help = false

    /// The usage text.
    public static let usage = """
        usage: store-simulator --truth <folder> [--port N] [--root-cert-out <file>]
                 [--apple-key-public <pem file> --apple-key-id <id> --apple-issuer-id <id>]
                 [--google-service-account-public <pem file> --google-client-email <email>]
                 [--limits on|off] [--limits-config "apple.getAllSubscriptionStatuses=50,google.voidedpurchases.list=1/30,…"]
                 [--faults "5xx=0.05,timeout=0.02,reset=0.01,truncated=0.01,content-type=0.01,signature=0.01,bundle=0.01,stale=0.01,429=0.01,oversized=0.01,expired=0.01,timeout-seconds=35,storm-seconds=1,oversized-bytes=16777216"]
                 [--seed N] [--google-bucket <name>] [--notification-url <url>]
        Prints {"port":N,"root_cert":"<file>"} on stdout when listening; on SIGTERM/SIGINT prints counters on stderr.
        """

    /// Makes an empty command line.
    public init() {}

    /// Parses the arguments after the program name; key files are read here.
    public static func parse(_ arguments: [String]) throws(SimulatorError) -> SimulatorCommandLine {
        var result = SimulatorCommandLine()
        var values: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let flag = arguments[index]
            if flag == "--help" || flag == "-h" {
                result.help = true
                return result
            }
            guard flag.hasPrefix("--"), index + 1 < arguments.count else { throw .invalidOption("\(flag) needs a value") }
            values[flag] = arguments[index + 1]
            index += 2
        }
        let known: Set<String> = ["--truth", "--port", "--root-cert-out", "--apple-key-public", "--apple-key-id", "--apple-issuer-id",
                                  "--google-service-account-public", "--google-client-email", "--limits", "--limits-config",
                                  "--faults", "--seed", "--google-bucket", "--notification-url"]
        if let unknown = values.keys.sorted().first(where: { !known.contains($0) }) { throw .invalidOption("unknown option \(unknown)") }
        guard let truth = values["--truth"] else { throw .invalidOption("--truth <folder> is required") }
        result.truthFolder = truth
        if let text = values["--port"] {
            guard let port = UInt16(text) else { throw .invalidOption("--port must be 0…65535") }
            result.port = port
        }
        result.rootCertificateOutput = values["--root-cert-out"]
        var configuration = SimulatorConfiguration()
        configuration.appleKey = try appleKey(values)
        configuration.googleAccount = try googleAccount(values)
        switch values["--limits"] ?? "on" {
        case "on": configuration.rateLimits.enabled = true
        case "off": configuration.rateLimits.enabled = false
        default: throw .invalidOption("--limits must be on or off")
        }
        if let text = values["--limits-config"] { configuration.rateLimits.overrides = try RateLimitConfiguration.parseOverrides(text) }
        if let text = values["--faults"] { configuration.faults = try FaultConfiguration.parse(text) }
        if let text = values["--seed"] {
            guard let seed = UInt64(text) else { throw .invalidOption("--seed must be an unsigned integer") }
            configuration.seed = seed
        }
        if let bucket = values["--google-bucket"] { configuration.googleBucket = bucket }
        configuration.notificationURL = values["--notification-url"]
        result.configuration = configuration
        return result
    }

    private static func appleKey(_ values: [String: String]) throws(SimulatorError) -> AppStoreConnectKey? {
        let parts = [values["--apple-key-public"], values["--apple-key-id"], values["--apple-issuer-id"]]
        guard parts.contains(where: { $0 != nil }) else { return nil }
        guard let file = parts[0], let keyId = parts[1], let issuerId = parts[2] else {
            throw .invalidOption("--apple-key-public, --apple-key-id and --apple-issuer-id go together")
        }
        return AppStoreConnectKey(keyId: keyId, issuerId: issuerId, publicKeyPEM: try read(file))
    }

    private static func googleAccount(_ values: [String: String]) throws(SimulatorError) -> GoogleServiceAccountIdentity? {
        let file = values["--google-service-account-public"]
        let email = values["--google-client-email"]
        guard file != nil || email != nil else { return nil }
        guard let file, let email else {
            throw .invalidOption("--google-service-account-public and --google-client-email go together")
        }
        return GoogleServiceAccountIdentity(clientEmail: email, publicKeyPEM: try read(file))
    }

    private static func read(_ path: String) throws(SimulatorError) -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .setup("cannot read \(path): \(error.localizedDescription)")
        }
    }
}
