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
