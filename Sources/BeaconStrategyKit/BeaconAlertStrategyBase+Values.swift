// The storage of the subclass's values: `ids.count` initialised values from `values`, room for
// `valueCapacity`. Managed by hand so that the unspecialised base code reaches a value with
// `Value`'s own metadata only (a `ContiguousArray<Value>` needed its own, looked up per access).
extension BeaconAlertStrategyBase {
    /// Appends `value` after the `ids.count` values stored (call before appending to `ids`).
    func appendValue(_ value: Value) {
        precondition(!inHooks, reentryMessage)
        let count = ids.count
        if count == valueCapacity {
            let capacity = max(2 * valueCapacity, 8)
            let grown = UnsafeMutablePointer<Value>.allocate(capacity: capacity)
            grown.moveInitialize(from: values, count: count)
            values.deallocate()
            values = grown
            valueCapacity = capacity
        }
        (values + count).initialize(to: value)
    }
}
