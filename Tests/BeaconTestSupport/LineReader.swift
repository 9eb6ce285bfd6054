import Foundation
import Testing

/// Reads a child's output line by line as it comes, keeping every line read: the one line reader
/// of the test servers and launchers.
///
/// A thread of its own drains the pipe from the start, whether or not anyone waits for a line:
/// a child whose output nobody asks for (a daemon's alert lines while a test watches its page)
/// never blocks on a full pipe, as it never would under journald or a terminal. The async calls
/// wait on a thread of their own (see ``onOwnThread(_:)``); the `blocking` ones are for
/// initialisers that wait for a ready line.
///
/// `@unchecked Sendable`: its state is behind one lock, shared with the draining thread.
public final class LineReader: @unchecked Sendable {
    /// What the draining thread has read, and how far the readers got.
    private final class Storage: @unchecked Sendable {
        let condition = NSCondition()
        var buffer = Data()
        var lines: [String] = []
        var ended = false
        /// How many of `lines` ``LineReader/line(containing:)`` has consumed.
        var consumed = 0
    }

    private let storage = Storage()

    /// Every complete line read so far.
    public var lines: [String] {
        storage.condition.lock()
        defer { storage.condition.unlock() }
        return storage.lines
    }

    /// Starts draining `handle` (until its end).
    public init(_ handle: FileHandle) {
        let storage = storage
        let thread = Thread {
            while true {
                let chunk = handle.availableData
                storage.condition.lock()
                if chunk.isEmpty {
                    storage.ended = true
                } else {
                    storage.buffer += chunk
                    while let newline = storage.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        storage.lines.append(
                            String(decoding: storage.buffer[storage.buffer.startIndex..<newline], as: UTF8.self))
                        storage.buffer = Data(storage.buffer[storage.buffer.index(after: newline)...])
                    }
                }
                storage.condition.broadcast()
                storage.condition.unlock()
                if chunk.isEmpty { return }
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// The next line (after those already returned) that contains `text`; `nil` if the output ends first.
    public func line(containing text: String = "") async -> String? {
        await onOwnThread { self.blockingLine(containing: text) }
    }

    /// The first line ever read that contains `text`, whether or not ``line(containing:)`` has
    /// passed it (waiting on until one comes); `nil` if the output ends first. For lines whose
    /// order among others is not fixed (two alerts of one cycle).
    public func firstLine(containing text: String) async -> String? {
        if let seen = lines.first(where: { $0.contains(text) }) { return seen }
        return await line(containing: text)
    }

    /// ``line(containing:)``, blocking the calling thread.
    public func blockingLine(containing text: String = "", sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        expectOffCooperativePool("waiting for a line of a child's output", sourceLocation: sourceLocation)
        storage.condition.lock()
        defer { storage.condition.unlock() }
        while true {
            while storage.consumed < storage.lines.count {
                storage.consumed += 1
                let line = storage.lines[storage.consumed - 1]
                if text.isEmpty || line.contains(text) { return line }
            }
            if storage.ended { return nil }
            storage.condition.wait()
        }
    }

    /// Waits until every line of `expected` has been seen (or the output ends); returns all lines.
    @discardableResult
    public func read(until expected: [String]) async -> [String] {
        await onOwnThread {
            let wanted = Set(expected)
            self.storage.condition.lock()
            defer { self.storage.condition.unlock() }
            while !wanted.isSubset(of: Set(self.storage.lines)), !self.storage.ended { self.storage.condition.wait() }
            return self.storage.lines
        }
    }

    /// Waits for the end; returns what ``line(containing:)`` has not consumed, unfinished last line included.
    public func rest() async -> String {
        await onOwnThread {
            self.storage.condition.lock()
            defer { self.storage.condition.unlock() }
            while !self.storage.ended { self.storage.condition.wait() }
            let unread = self.storage.lines[self.storage.consumed...].map { $0 + "\n" }.joined()
            return unread + String(decoding: self.storage.buffer, as: UTF8.self)
        }
    }
}

/// Waits for `process` to exit on a thread of its own, not on the cooperative pool.
public func waitForExit(_ process: Process) async {
    let box = UncheckedProcess(process)
    await onOwnThread { blockUntilExit(box.process) }
}
