import Foundation

/// Reads a child's output line by line as it comes, on a thread of its own (see
/// ``onOwnThread(_:)``), keeping every line read.
///
/// `@unchecked Sendable`: one test task reads it, one call at a time.
public final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private var buffer = Data()
    /// Every complete line read so far.
    public private(set) var lines: [String] = []

    /// Reads from `handle`.
    public init(_ handle: FileHandle) { self.handle = handle }

    /// Reads until every line of `expected` has been seen (or the output ends); returns all lines.
    @discardableResult
    public func read(until expected: [String]) async -> [String] {
        await onOwnThread { self.blockingRead(until: Set(expected)) }
    }

    private func blockingRead(until expected: Set<String>) -> [String] {
        while true {
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer = Data(buffer[buffer.index(after: newline)...])
            }
            if expected.isSubset(of: Set(lines)) { return lines }
            let chunk = handle.availableData
            if chunk.isEmpty { return lines }
            buffer += chunk
        }
    }
}

/// Waits for `process` to exit on a thread of its own, not on the cooperative pool.
public func waitForExit(_ process: Process) async {
    let box = UncheckedProcess(process)
    await onOwnThread { box.process.waitUntilExit() }
}

private struct UncheckedProcess: @unchecked Sendable {
    let process: Process
    init(_ process: Process) { self.process = process }
}
