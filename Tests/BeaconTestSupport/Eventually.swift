/// Lets other tasks run until `condition` holds or `turns` turns have passed — for a test that
/// waits on work another task does, without sleeping. Returns whether it held.
@discardableResult
public func eventually(turns: Int = 200_000, _ condition: () async -> Bool) async -> Bool {
    for _ in 0..<turns {
        if await condition() { return true }
        await Task.yield()
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
