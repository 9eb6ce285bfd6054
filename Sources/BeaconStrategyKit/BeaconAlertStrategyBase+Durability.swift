import BeaconCore
import FoundationEssentials

/// The saved form of one beacon in ``BeaconAlertStrategyBase``:
///
/// | bytes | content |
/// |---|---|
/// | 1 | format version (1) |
/// | 1 | action status (0 waiting for action, 1 action done) |
/// | 1 | condition valid at the latest update (0 or 1) |
/// | 8 | last present cycle, nanoseconds since the epoch, little-endian |
/// | rest | the subclass's `Value` as JSON (empty when it is not saved) |
extension BeaconAlertStrategyBase {
    static var formatVersion: UInt8 { 1 }

    /// Whether `Value` can be saved: `Codable`, or `Void` (nothing to save).
    static var valueIsCodable: Bool { Value.self is any Codable.Type || Value.self == Void.self }

    var baseStateDurability: StrategyStateDurability {
        if !savesValue || Self.valueIsCodable { return .saved }
        return .incomplete(
            "\(type(of: self)) keeps a per-beacon \(Value.self) that is not Codable: after a restart "
                + "each beacon's action status is restored but its value starts again from the initial value; make "
                + "\(Value.self) Codable, or override savesValue to return false if that is what it should do")
    }

    func collectBaseStateChanges(into entries: inout [StrategyStateEntry]) {
        savesChanges = true
        for id in forgotten { entries.append(StrategyStateEntry(beacon: id, state: nil)) }
        forgotten.removeAll()
        let encoder = JSONEncoder()
        // Keys in a fixed order: unordered, the same value could encode (and hash) differently
        // from one collection to the next, and be written again for nothing.
        encoder.outputFormatting = .sortedKeys
        for slot in ids.indices where books[slot].changed {
            books[slot].changed = false
            settle(slot)
            let bytes = encode(slot: slot, encoder: encoder)
            let hash = Self.hash(bytes)
            guard hash != books[slot].savedHash else { continue }
            books[slot].savedHash = hash
            entries.append(StrategyStateEntry(beacon: ids[slot], state: bytes))
        }
    }

    func restoreBaseState(_ entries: [StrategyStateEntry]) throws {
        savesChanges = true
        let decoder = JSONDecoder()
        for entry in entries where entry.part.isEmpty {
            guard let bytes = entry.state else { continue }
            let (book, value) = try decode(bytes, beacon: entry.beacon, decoder: decoder)
            if let slot = slots[entry.beacon] {
                books[slot] = book
                values[slot] = value
            } else {
                slots[entry.beacon] = ids.count
                appendValue(value)
                ids.append(entry.beacon)
                books.append(book)
            }
        }
    }

    private func encode(slot: Int, encoder: JSONEncoder) -> [UInt8] {
        let book = books[slot]
        var bytes: [UInt8] = [Self.formatVersion, book.actionStatus.rawValue, book.conditionValid ? 1 : 0]
        withUnsafeBytes(of: book.lastSeen.nanosecondsSinceEpoch.littleEndian) { bytes.append(contentsOf: $0) }
        if savesValue, let value = values[slot] as? any Encodable, let json = try? encoder.encode(value) {
            bytes.append(contentsOf: json)
        }
        return bytes
    }

    private func decode(_ bytes: [UInt8], beacon: BeaconID, decoder: JSONDecoder) throws -> (Bookkeeping, Value) {
        func unreadable(_ reason: String) -> StrategyStateError {
            .unreadable(strategy: key, beacon: beacon.description, reason: reason)
        }
        guard bytes.count >= 11 else { throw unreadable("\(bytes.count) bytes, at least 11 expected") }
        guard bytes[0] == Self.formatVersion else {
            throw unreadable("format version \(bytes[0]), \(Self.formatVersion) expected")
        }
        guard let status = ActionStatus(rawValue: bytes[1]) else { throw unreadable("action status \(bytes[1])") }
        var nanoseconds: Int64 = 0
        for (shift, byte) in bytes[3..<11].enumerated() { nanoseconds |= Int64(byte) << (8 * Int64(shift)) }
        var book = Bookkeeping(lastSeen: Timestamp(nanosecondsSinceEpoch: nanoseconds))
        book.actionStatus = status
        book.conditionValid = bytes[2] != 0
        book.changed = false
        book.savedHash = Self.hash(bytes)
        var value = initialValue
        if bytes.count > 11, savesValue, let type = Value.self as? any Decodable.Type {
            do {
                guard let decoded = try decoder.decode(type, from: Data(bytes[11...])) as? Value else {
                    throw unreadable("not a \(Value.self)")
                }
                value = decoded
            } catch let error as StrategyStateError {
                throw error
            } catch {
                throw unreadable("\(error)")
            }
        }
        return (book, value)
    }

    /// FNV-1a over the saved form (never 0, which means "never saved").
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash == 0 ? 1 : hash
    }
}
