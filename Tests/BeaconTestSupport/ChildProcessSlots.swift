/// At most a few child processes run at once across the whole test run: with their blocking
/// waits off the cooperative pool (``onOwnThread(_:)``), nothing else would stop a 2-core
/// machine from starting every command-line test together, and then a command that must fail
/// fast cannot be told from a machine that is merely overloaded.
public actor ChildProcessSlots {
    /// The slots every ``CommandRun`` takes one of.
    public static let shared = ChildProcessSlots(count: 2)

    /// One slot for the tests that run a whole site as processes (a broker, hubs, gateways): two
    /// of them at once on a 2-core machine, next to the rest of the run, starve each other's
    /// wall-clock walks until their timing means nothing.
    public static let siteRuns = ChildProcessSlots(count: 1)

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
