import Foundation

/// Reads a child's output line by line as it comes, keeping every line read: the one line reader
/// of the test servers and launchers. The async calls block on a thread of their own (see
/// ``onOwnThread(_:)``); the `blocking` ones are for initialisers that wait for a ready line.
///
/// `@unchecked Sendable`: one test task reads it, one call at a time.
public final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private var buffer = Data()
    /// Every complete line read so far.
    public private(set) var lines: [String] = []
    /// How many of ``lines`` ``line(containing:)`` has consumed.
    private var consumed = 0

    /// Reads from `handle`.
    public init(_ handle: FileHandle) { self.handle = handle }

    /// The next line (after those already returned) that contains `text`; `nil` if the output ends first.
    public func line(containing text: String = "") async -> String? {
        await onOwnThread { self.blockingLine(containing: text) }
    }

    /// The first line ever read that contains `text`, whether or not ``line(containing:)`` has
    /// passed it (reading on until one comes); `nil` if the output ends first. For lines whose
    /// order among others is not fixed (two alerts of one cycle).
    public func firstLine(containing text: String) async -> String? {
        if let seen = lines.first(where: { $0.contains(text) }) { return seen }
        return await line(containing: text)
    }

    /// ``line(containing:)``, blocking the calling thread.
    public func blockingLine(containing text: String = "") -> String? {
        while true {
            while consumed < lines.count {
                consumed += 1
                if text.isEmpty || lines[consumed - 1].contains(text) { return lines[consumed - 1] }
            }
            guard readMore() else { return nil }
        }
    }

    /// Reads until every line of `expected` has been seen (or the output ends); returns all lines.
    @discardableResult
    public func read(until expected: [String]) async -> [String] {
        await onOwnThread {
            let wanted = Set(expected)
            while !wanted.isSubset(of: Set(self.lines)), self.readMore() {}
            return self.lines
        }
    }

    /// Reads to the end; returns what ``line(containing:)`` has not consumed, unfinished last line included.
    public func rest() async -> String {
        await onOwnThread {
            while self.readMore() {}
            let unread = self.lines[self.consumed...].map { $0 + "\n" }.joined()
            return unread + String(decoding: self.buffer, as: UTF8.self)
        }
    }

    /// Reads one chunk and splits off its complete lines; `false` at the end of the output.
    private func readMore() -> Bool {
        let chunk = handle.availableData
        if chunk.isEmpty { return false }
        buffer += chunk
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
            buffer = Data(buffer[buffer.index(after: newline)...])
        }
        return true
    }
}

/// Waits for `process` to exit on a thread of its own, not on the cooperative pool.
public func waitForExit(_ process: Process) async {
    let box = UncheckedProcess(process)
    await onOwnThread { blockUntilExit(box.process) }
}

private struct UncheckedProcess: @unchecked Sendable {
    let process: Process
    init(_ process: Process) { self.process = process }
}
