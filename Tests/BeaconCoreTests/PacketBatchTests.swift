import Testing

@testable import BeaconCore

@Suite("PacketBatch")
struct PacketBatchTests {
    @Test("Packets keep their bytes, order and timestamps; removeAll keeps capacity")
    func appendAndIterate() {
        var batch = PacketBatch(byteCapacity: 64, packetCapacity: 4)
        batch.append([0x04, 0x3E, 0x00], timestamp: Timestamp(nanosecondsSinceEpoch: 1))
        batch.append(linkType: .nordicBLE, timestamp: Timestamp(nanosecondsSinceEpoch: 2)) { $0 += [9, 8] }
        var seen: [([UInt8], LinkType, Int64)] = []
        batch.forEachPacket { record, bytes in
            seen.append((Array(bytes), record.linkType, record.timestamp.nanosecondsSinceEpoch))
        }
        #expect(seen.map(\.0) == [[0x04, 0x3E, 0x00], [9, 8]])
        #expect(seen.map(\.1) == [.hciH4, .nordicBLE])
        #expect(seen.map(\.2) == [1, 2])
        let capacity = batch.bytes.capacity
        batch.removeAll()
        #expect(batch.isEmpty && batch.bytes.isEmpty)
        #expect(batch.bytes.capacity == capacity)
    }
}
