import Foundation
import HTTPServer
import StoreTruth

/// Loads a truth folder, serves it over loopback HTTP and stops on request; what the executable runs.
public final class SimulatorRunner: @unchecked Sendable {
    /// The simulator being served.
    public let simulator: StoreSimulator
    /// Where the root certificate was written.
    public let rootCertificatePath: String
    private let server: LoopbackHTTPServer

    /// Reads the truth, builds the simulator (writing the root certificate) and binds the port.
    public convenience init(_ commandLine: SimulatorCommandLine) throws(SimulatorError) {
        let folder = URL(fileURLWithPath: commandLine.truthFolder)
        let truth: StoreTruth
        do {
            truth = try StoreTruthFolder.read(from: folder)
        } catch {
            throw .setup("cannot read truth folder \(commandLine.truthFolder): \(error)")
        }
        let rootPath = commandLine.rootCertificateOutput ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("store-simulator-\(ProcessInfo.processInfo.processIdentifier)/root.pem").path
        var configuration = commandLine.configuration
        configuration.rootCertificateOutput = rootPath
        configuration.reportsFolder = folder.appendingPathComponent("reports")
        try self.init(simulator: StoreSimulator(truth: truth, configuration: configuration),
                      rootCertificatePath: rootPath, port: commandLine.port)
    }

    /// Serves an existing simulator (tests).
    public init(simulator: StoreSimulator, rootCertificatePath: String = "", port: UInt16 = 0) throws(SimulatorError) {
        self.simulator = simulator
        self.rootCertificatePath = rootCertificatePath
        do {
            server = try LoopbackHTTPServer(handler: simulator, port: port)
        } catch {
            throw .setup("cannot listen on 127.0.0.1:\(port): \(error)")
        }
    }

    /// The bound port.
    public var port: UInt16 { server.port }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { server.baseURL }

    /// Starts serving.
    public func start() throws(SimulatorError) {
        do {
            try server.start()
        } catch {
            throw .setup("cannot start the server: \(error)")
        }
    }

    /// Stops serving and joins the server's threads.
    public func stop() {
        server.stop()
    }

    /// The line printed when listening: `{"port":N,"root_cert":"<path>"}`.
    public var readyLine: String {
        let escaped = rootCertificatePath.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "{\"port\":\(port),\"root_cert\":\"\(escaped)\"}"
    }

    /// Blocks until SIGTERM or SIGINT arrives.
    public static func waitForTermination() {
        let semaphore = DispatchSemaphore(value: 0)
        let sources = [SIGTERM, SIGINT].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { semaphore.signal() }
            source.resume()
            return source
        }
        semaphore.wait()
        sources.forEach { $0.cancel() }
    }
}
