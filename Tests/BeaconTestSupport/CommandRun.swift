import Foundation

/// Runs a command to completion and captures its output (for tests of the `beacond` CLI).
public struct CommandRun {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String

    public init(_ executable: String, _ arguments: [String], directory: String? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end before waiting, so a full pipe cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        status = process.terminationStatus
        standardOutput = String(decoding: outData, as: UTF8.self)
        standardError = String(decoding: errData, as: UTF8.self)
    }
}
