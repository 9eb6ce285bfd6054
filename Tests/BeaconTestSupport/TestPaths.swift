import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Files the tests use: fixtures in the repository, the bundled scenarios and the built `beacond`.
public enum TestPaths {
    /// The repository root (two levels above this file's folder).
    public static var repositoryRoot: String {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3) // TestPaths.swift, BeaconTestSupport, Tests
        return parts.joined(separator: "/")
    }

    /// A capture fixture shared with the wire tests (see its PROVENANCE.md).
    public static func capture(_ name: String) -> String {
        repositoryRoot + "/Tests/BeaconWireTests/Fixtures/Captures/" + name
    }

    /// A bundled scenario (`Simulator/Scenarios/NAME.yaml`).
    public static func scenario(_ name: String) -> String {
        repositoryRoot + "/Simulator/Scenarios/" + name + ".yaml"
    }

    /// The bundled lobby (`lobby.yaml`) with visitor 1 at the desk for 10 minutes of a 15-minute
    /// run, written into `directory`: for a test that runs it on the wall clock against a daemon
    /// it stops itself. The visitor, its alerts and the daemon stay for as long as the test needs
    /// them, however slowly a busy machine lets it check, instead of leaving after 90 s.
    public static func lingeringLobby(in directory: URL) throws -> String {
        var text = try String(contentsOfFile: scenario("lobby"), encoding: .utf8)
        for (from, to) in [("duration: 2m", "duration: 15m"), ("{at: [1, 0, 1], dwell: 90s}", "{at: [1, 0, 1], dwell: 600s}")] {
            precondition(text.contains(from), "lobby.yaml no longer has '\(from)'")
            text = text.replacingOccurrences(of: from, with: to)
        }
        let path = directory.appendingPathComponent("lobby-lingering.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The `beacond` executable SwiftPM built next to the test binary.
    public static var beacond: String { buildDirectory + "/beacond" }

    /// The example C plugin (`c-streak`) SwiftPM built next to the test binary.
    public static var exampleCPlugin: String { buildDirectory + "/libExampleCPlugin.so" }

    /// Where SwiftPM put the test binary (and the products built with it).
    static var buildDirectory: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = String(decoding: buffer[..<max(count, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var parts = executable.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/")
    }
}
