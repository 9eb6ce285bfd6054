import BeaconCore
import Testing

@testable import BeaconSimulator

@Suite("Event queue")
struct EventQueueTests {
    /// The oracle: a plain array searched for the smallest (time, beacon).
    struct Oracle {
        var times: [Int64?]
        func earliest() -> (time: Int64, beacon: Int32)? {
            var best: (time: Int64, beacon: Int32)?
            for (beacon, time) in times.enumerated() {
                guard let time else { continue }
                if best == nil || time < best!.time { best = (time, Int32(beacon)) }
            }
            return best
        }
    }

    @Test("events come out in (time, beacon) order, across slots, years and removals")
    func matchesOracle() throws {
        let origin: Int64 = 1_700_000_000_000_000_000
        var random = SplitMix64(seed: 99)
        let beacons = 60
        var queue = EventQueue(capacity: beacons, origin: origin)
        var oracle = Oracle(times: Array(repeating: nil, count: beacons))
        for beacon in 0..<beacons {
            // Some ties on purpose: times on a 5 ms grid.
            let time = origin + Int64(random.next() % 400) * 5_000_000
            queue.push(time: time, beacon: Int32(beacon))
            oracle.times[beacon] = time
        }
        for step in 0..<20_000 {
            let expected = try #require(oracle.earliest())
            let peeked = queue.peek()
            let got = try #require(peeked)
            #expect(got.time == expected.time && got.beacon == expected.beacon, "step \(step)")
            if got.time != expected.time || got.beacon != expected.beacon { return }
            if step % 97 == 0 {
                queue.removeTop()
                oracle.times[Int(got.beacon)] = nil
            } else {
                // 20 ms … 40 s ahead: beyond the ≈ 17 s year now and then.
                let next = got.time + 20_000_000 + Int64(random.next() % 40_000_000_000)
                queue.replaceTop(time: next)
                oracle.times[Int(got.beacon)] = next
            }
            if oracle.earliest() == nil { break }
        }
        #expect(queue.count == oracle.times.compactMap { $0 }.count)
    }
}
