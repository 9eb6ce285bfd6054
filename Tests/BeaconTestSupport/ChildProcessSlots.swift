/// At most a few child processes run at once across the whole test run: with their blocking
/// waits off the cooperative pool (``onOwnThread(_:)``), nothing else would stop a 2-core
/// machine from starting every command-line test together, and then a command that must fail
/// fast cannot be told from a machine that is merely overloaded.
public actor ChildProcessSlots {
    /// The slots every ``CommandRun`` takes one of.
    public static let shared = ChildProcessSlots(count: 2)

    /// Slots for the tests that run a whole site as processes (a broker, hubs, gateways, a walk
    /// of 40 s on the wall clock): four, all of today's at once. Their walks start when every
    /// process has said it is ready (`startFile:`), so a slow start cannot make one miss its walk,
    /// and they spend their time waiting on the wall clock, not computing.
    public static let siteRuns = ChildProcessSlots(count: 4)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { free = count }

    /// Runs `body` holding a slot (waiting for one first).
    public func withSlot<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}
