import Foundation
import StoreSimulator

/// `store-simulator`: serve a truth folder as the App Store and Google Play APIs on loopback until SIGTERM/SIGINT.
let arguments = Array(CommandLine.arguments.dropFirst())
let commandLine: SimulatorCommandLine
do {
    commandLine = try SimulatorCommandLine.parse(arguments)
} catch {
    FileHandle.standardError.write(Data("store-simulator: \(error)\n\(SimulatorCommandLine.usage)\n".utf8))
    exit(2)
}
if commandLine.help {
    print(SimulatorCommandLine.usage)
    exit(0)
}
do {
    let runner = try SimulatorRunner(commandLine)
    try runner.start()
    FileHandle.standardOutput.write(Data((runner.readyLine + "\n").utf8))
    SimulatorRunner.waitForTermination()
    runner.stop()
    FileHandle.standardError.write(Data((runner.simulator.counters.jsonLine() + "\n").utf8))
    exit(0)
} catch {
    FileHandle.standardError.write(Data("store-simulator: \(error)\n".utf8))
    exit(1)
}
