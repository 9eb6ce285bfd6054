/// A binary min-heap of pending advertising events: (virtual time in ns, beacon index), ordered by
/// time then beacon index, so that the order is total and runs are reproducible.
///
/// One entry per beacon; the hot loop reads the earliest with ``top`` and reschedules it in place
/// with ``replaceTop(time:)``, which never allocates.
struct EventQueue {
    struct Entry {
        var time: Int64
        var beacon: Int32
    }

    private(set) var entries: [Entry] = []

    init(capacity: Int) { entries.reserveCapacity(capacity) }

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// The earliest event (the queue must not be empty).
    @inline(__always) var top: Entry { entries[0] }

    @inline(__always)
    static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.time < b.time || (a.time == b.time && a.beacon < b.beacon)
    }

    mutating func push(time: Int64, beacon: Int32) {
        entries.append(Entry(time: time, beacon: beacon))
        var child = entries.count - 1
        entries.withUnsafeMutableBufferPointer { heap in
            let item = heap[child]
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.precedes(item, heap[parent]) else { break }
                heap[child] = heap[parent]
                child = parent
            }
            heap[child] = item
        }
    }

    /// Moves the earliest event to `time` and restores the heap order.
    @inline(__always)
    mutating func replaceTop(time: Int64) {
        entries.withUnsafeMutableBufferPointer { heap in
            var item = heap[0]
            item.time = time
            Self.siftDown(item, in: heap, count: heap.count)
        }
    }

    /// Removes the earliest event.
    mutating func removeTop() {
        let last = entries.removeLast()
        guard !entries.isEmpty else { return }
        entries.withUnsafeMutableBufferPointer { heap in
            Self.siftDown(last, in: heap, count: heap.count)
        }
    }

    @inline(__always)
    private static func siftDown(_ item: Entry, in heap: UnsafeMutableBufferPointer<Entry>, count: Int) {
        var index = 0
        while true {
            var child = 2 * index + 1
            if child >= count { break }
            if child + 1 < count, precedes(heap[child + 1], heap[child]) { child += 1 }
            guard precedes(heap[child], item) else { break }
            heap[index] = heap[child]
            index = child
        }
        heap[index] = item
    }
}
