import BeaconCore
import BeaconStrategyKit
import BeaconStrategyTestSupport
import Testing

@Suite("BeaconTable: dense per-beacon storage")
struct BeaconTableTests {
    @Test("insert, look up, modify in place")
    func basics() throws {
        var table = BeaconTable<Int>(capacity: 4)
        let a = table.insert(10, for: .numbered(1))
        let b = table.insert(20, for: .numbered(2))
        #expect((a, b) == (0, 1))
        #expect(table.count == 2)
        #expect(table.slot(of: .numbered(2)) == 1)
        #expect(table.slot(of: .numbered(3)) == nil)
        table[a] += 5
        #expect(table[a] == 15)
        #expect(table.id(at: b) == .numbered(2))
    }

    @Test("removal moves the last beacon into the freed slot", arguments: [0, 1, 2])
    func removal(removed: Int) throws {
        var table = BeaconTable<String>()
        for n in 0..<3 { _ = table.insert("beacon \(n)", for: .numbered(n)) }
        table.remove(.numbered(removed))
        #expect(table.count == 2)
        #expect(table.slot(of: .numbered(removed)) == nil)
        for n in 0..<3 where n != removed {
            let slot = try #require(table.slot(of: .numbered(n)))
            #expect(table[slot] == "beacon \(n)")
            #expect(table.id(at: slot) == .numbered(n))
        }
    }
}
