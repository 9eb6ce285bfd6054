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

    /// The `beacond` executable SwiftPM built next to the test binary.
    public static var beacond: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = String(decoding: buffer[..<max(count, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var parts = executable.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/beacond"
    }
}
