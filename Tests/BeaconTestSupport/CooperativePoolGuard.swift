import Foundation
import Testing

/// Records an issue when the caller is a task: a thread of Swift's cooperative pool, which has
/// one thread per core (two on the CI machine) and does not grow when they block.
///
/// Every test body runs on that pool, synchronous ones too. A wait there (a child process's
/// exit, a line of a pipe, a broker's log) takes a pool thread for as long as it lasts; two such
/// waits at once stall every other test of the process, the in-process servers included. On a
/// loaded machine that was minutes: a status request to a ``ControlServer`` went unanswered for
/// 180 s while two tests waited for a shared simulation and a child's exit. The blocking helpers
/// of this module call this first, so a wait put on the pool fails its test on every machine, not
/// one run in many on a busy one. Wait through ``onOwnThread(_:)`` or the helper's async form.
/// - Parameter what: the blocking call, as the message names it.
public func expectOffCooperativePool(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let onTask = withUnsafeCurrentTask { $0 != nil }
    guard onTask else { return }
    let message =
        "\(what) blocks a thread of Swift's cooperative pool (one per core): call it inside onOwnThread { … } or use its async form"
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}

/// Kills nothing, waits for nothing: reaps `process` on a thread of its own once it exits, for a
/// `deinit` or a `defer` that cannot wait (Foundation's child monitor must not outlive the
/// `Process`, which the thread holds until then).
public func reapWhenExited(_ process: Process, then cleanUp: @escaping @Sendable () -> Void = {}) {
    let box = UncheckedProcess(process)
    let thread = Thread {
        blockUntilExit(box.process)
        cleanUp()
    }
    thread.stackSize = 1 << 18
    thread.start()
}

/// A `Process` handed to another thread: it is only read there (`isRunning`).
struct UncheckedProcess: @unchecked Sendable {
    let process: Process
    init(_ process: Process) { self.process = process }
}
