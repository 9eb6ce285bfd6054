import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the test process finds the files its plugin tests load.
enum PluginPaths {
    /// The directory of the running test binary: SwiftPM puts the example plugin
    /// (`.library(type: .dynamic)` product `ExampleStrategyPlugin`) next to it.
    static var buildDirectory: String {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable =
            count > 0
            ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        #else
        let executable = CommandLine.arguments[0]
        #endif
        var components = executable.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast()
        // On macOS the binary is inside a bundle: …/debug/X.xctest/Contents/MacOS/X.
        while let last = components.last, last != "debug", last != "release", components.count > 1,
            executable.contains(".xctest/")
        { components.removeLast() }
        return components.joined(separator: "/")
    }

    /// The example plugin built by `swift build`.
    static var examplePlugin: String {
        #if os(Linux)
        buildDirectory + "/libExampleStrategyPlugin.so"
        #else
        buildDirectory + "/libExampleStrategyPlugin.dylib"
        #endif
    }

    /// The example plugin written in C (product `ExampleCPlugin`).
    static var exampleCPlugin: String {
        #if os(Linux)
        buildDirectory + "/libExampleCPlugin.so"
        #else
        buildDirectory + "/libExampleCPlugin.dylib"
        #endif
    }

    /// A real shared library that does not export the plugin entry point (the C math library).
    static var libraryWithoutEntryPoint: String? {
        [
            "/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/x86_64-linux-gnu/libm.so.6", "/lib/aarch64-linux-gnu/libm.so.6",
            "/usr/lib/aarch64-linux-gnu/libm.so.6", "/lib64/libm.so.6", "/usr/lib64/libm.so.6", "/usr/lib/libm.so.6",
            "/usr/lib/libSystem.B.dylib",
        ].first { access($0, F_OK) == 0 }
    }

    /// Writes a text file that is not a shared library and returns its path.
    static func writeNotALibrary() throws -> String {
        let path = "\(FileManager.default.temporaryDirectory.path)/beacond-not-a-plugin-\(getpid()).so"
        try Data("this is a text file, not ELF\n".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
