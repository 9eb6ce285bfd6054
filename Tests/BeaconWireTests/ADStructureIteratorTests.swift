import BeaconWire
import Testing

@Suite("ADStructureIterator")
struct ADStructureIteratorTests {
    /// (type, data) of every structure, and the error if any.
    static func walk(_ bytes: [UInt8]) -> ([(UInt8, [UInt8])], WireError?) {
        bytes.withUnsafeBytes { raw in
            var out: [(UInt8, [UInt8])] = []
            var iterator = ADStructureIterator(raw)
            do throws(WireError) {
                while let s = try iterator.next() { out.append((s.type.rawValue, Array(s.data))) }
                return (out, nil)
            } catch {
                return (out, error)
            }
        }
    }

    @Test("structures are split by their length bytes; a zero length ends the data")
    func splitsStructures() {
        let (structures, error) = Self.walk(AnnotatedFrames.deviceData)
        #expect(error == nil)
        #expect(structures.map(\.0) == [0x01, 0x08, 0x0A, 0x02, 0x05, 0x07, 0xFF, 0x16])
        #expect(structures[1].1 == Array("Keys".utf8))
        #expect(structures[7].1 == [0x0F, 0x18, 0x64, 0x00])
    }

    @Test("a length running past the end is a typed error; earlier structures are kept")
    func truncatedStructure() {
        let bytes: [UInt8] = [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00] // second length 26, 3 bytes left
        let (structures, error) = Self.walk(bytes)
        #expect(structures.count == 1)
        #expect(structures.first?.1 == [0x06])
        #expect(error == WireError(.truncatedADStructure, offset: 3, bytes: [0x1A, 0xFF, 0x4C, 0x00]))
    }

    @Test("empty data and padding-only data have no structures", arguments: [[], [0x00], [0x00, 0x05, 0x01]] as [[UInt8]])
    func emptyData(bytes: [UInt8]) {
        let (structures, error) = Self.walk(bytes)
        #expect(structures.isEmpty)
        #expect(error == nil)
    }

    @Test("a length byte with no type byte is truncated")
    func lengthWithoutType() {
        let (structures, error) = Self.walk([0x02, 0x01, 0x06, 0x01])
        #expect(structures.count == 1)
        #expect(error?.kind == .truncatedADStructure)
        #expect(error?.offset == 3)
    }
}
