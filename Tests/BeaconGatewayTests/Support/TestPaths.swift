#if canImport(Glibc)
import Glibc
#endif

/// Files the gateway tests use: fixtures in the repository and the built `beacond`.
enum TestPaths {
    /// The repository root (three levels above this file).
    static var repositoryRoot: String {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)   // Support/TestPaths.swift, BeaconGatewayTests, Tests
        return parts.joined(separator: "/")
    }

    /// A capture fixture shared with the wire tests (see its PROVENANCE.md).
    static func capture(_ name: String) -> String {
        repositoryRoot + "/Tests/BeaconWireTests/Fixtures/Captures/" + name
    }

    /// The `beacond` executable SwiftPM built next to the test binary.
    static var beacond: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = String(decoding: buffer[..<max(count, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var parts = executable.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/beacond"
    }
}
