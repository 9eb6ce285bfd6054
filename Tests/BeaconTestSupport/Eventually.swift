/// Lets other tasks run until `condition` holds — for a test that waits on work another task
/// does. It yields for `turns` turns first (the work is usually that close), then checks every
/// millisecond up to ``hangCeiling``: a count of turns alone is a guess at how fast the machine
/// is, too short on a quiet machine whose other tasks are slow to start. Returns whether it held.
@discardableResult
public func eventually(turns: Int = 10_000, _ condition: () async -> Bool) async -> Bool {
    for _ in 0..<turns {
        if await condition() { return true }
        await Task.yield()
    }
    let deadline = ContinuousClock.now + hangCeiling
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return await condition()
}

/// Waits for work on real threads outside the test's control (a library's network thread, a
/// child process) to make `condition` true, checking every 10 ms up to `limit`. Not for logic
/// that takes a clock: drive a `ManualClock` there.
public func realWorkFinishes(within limit: Duration, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// How long a wait for real work (a child process, a server's thread, a broker) may take before
/// a test calls it a hang. Only a real hang reaches it, never a busy machine: waits end on the
/// event they wait for, and this ceiling only bounds a failure.
public let hangCeiling: Duration = .seconds(180)
