import Foundation

/// Runs the `openssl` command line for fixtures and independent signature checks.
enum OpenSSLTool {
    struct Failure: Error, CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        let output: String
        var description: String { "openssl \(arguments.joined(separator: " ")) exited \(status): \(output)" }
    }

    /// Runs `openssl arguments…` in `directory`; returns combined output and the exit status.
    static func run(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// Runs and throws unless the exit status is 0.
    @discardableResult
    static func check(_ arguments: [String], in directory: URL) throws -> String {
        let result = try run(arguments, in: directory)
        guard result.status == 0 else { throw Failure(arguments: arguments, status: result.status, output: result.output) }
        return result.output
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("crypto-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A hand-written DER encoder for ECDSA-Sig-Value, independent of the code under test.
enum TestDER {
    /// SEQUENCE { INTEGER r, INTEGER s } from raw r‖s.
    static func ecdsaSignature(raw: [UInt8]) -> [UInt8] {
        let half = raw.count / 2
        let body = integer(Array(raw[..<half])) + integer(Array(raw[half...]))
        return [0x30] + length(body.count) + body
    }

    private static func integer(_ bytes: [UInt8]) -> [UInt8] {
        var value = Array(bytes.drop { $0 == 0 })
        if value.isEmpty { value = [0] }
        if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return [0x02] + length(value.count) + value
    }

    private static func length(_ count: Int) -> [UInt8] {
        count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)]
    }
}
