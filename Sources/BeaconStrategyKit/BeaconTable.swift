import BeaconCore

/// Per-beacon storage for strategies: values kept densely in slot order with a hash index, so
/// that a lookup is one hash probe, a sweep over every beacon is a linear scan, and removal is
/// O(1) (the last slot moves into the freed one). Nothing is allocated once capacity is reached.
public struct BeaconTable<Value> {
    @usableFromInline var ids: ContiguousArray<BeaconID> = []
    @usableFromInline var values: ContiguousArray<Value> = []
    @usableFromInline var slots: [BeaconID: Int] = [:]

    /// An empty table with room for `capacity` beacons.
    public init(capacity: Int = 0) {
        ids.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
        slots.reserveCapacity(capacity)
    }

    /// How many beacons the table holds.
    @inlinable public var count: Int { values.count }

    /// The slot of `id`, if present. Slots are valid until the next removal.
    @inlinable public func slot(of id: BeaconID) -> Int? { slots[id] }

    /// The beacon stored in `slot`.
    @inlinable public func id(at slot: Int) -> BeaconID { ids[slot] }

    /// The value in `slot`, read or modified in place.
    @inlinable public subscript(slot: Int) -> Value {
        _read { yield values[slot] }
        _modify { yield &values[slot] }
    }

    /// Stores `value` for `id` (which must not be present) and returns its slot.
    @inlinable
    public mutating func insert(_ value: Value, for id: BeaconID) -> Int {
        let slot = values.count
        ids.append(id)
        values.append(value)
        slots[id] = slot
        return slot
    }

    /// Removes the beacon in `slot`; the beacon that was in the last slot now occupies `slot`.
    @inlinable
    public mutating func remove(at slot: Int) {
        let last = values.count - 1
        slots[ids[slot]] = nil
        if slot != last {
            ids[slot] = ids[last]
            // Copy in place through pointers: in unspecialised generic code, `swapAt` and a
            // returned `removeLast()` would each need a heap temporary of unknown size.
            values.withUnsafeMutableBufferPointer { buffer in
                (buffer.baseAddress! + slot).update(from: buffer.baseAddress! + last, count: 1)
            }
            slots[ids[slot]] = slot
        }
        ids.removeLast()
        values.removeLast(1)
    }

    /// Removes `id` if present.
    @inlinable
    public mutating func remove(_ id: BeaconID) {
        if let slot = slots[id] { remove(at: slot) }
    }
}

extension BeaconTable: Sendable where Value: Sendable {}
