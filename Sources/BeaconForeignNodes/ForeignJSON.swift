import FoundationEssentials

/// The JSON reading the translators share: a payload decoded into `T`, or a refusal saying what
/// was wrong (size, syntax, which member had which wrong type).
enum ForeignJSON {
    static func decode<T: Decodable>(_ type: T.Type, from payload: UnsafeRawBufferPointer) throws(ForeignPayloadRefusal) -> T {
        guard payload.count <= ForeignPayloadRefusal.maxPayloadBytes else {
            throw ForeignPayloadRefusal(
                .malformed, "\(payload.count) bytes, more than the \(ForeignPayloadRefusal.maxPayloadBytes) a node sends")
        }
        guard let first = payload.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }), first == 0x7B
        else {
            throw ForeignPayloadRefusal(.malformed, "not a JSON object: \(preview(payload))")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(payload))
        } catch let DecodingError.typeMismatch(_, context) {
            throw ForeignPayloadRefusal(.malformed, "\(path(context)): \(context.debugDescription)")
        } catch let DecodingError.keyNotFound(key, _) {
            throw ForeignPayloadRefusal(.malformed, "no '\(key.stringValue)' member")
        } catch let DecodingError.valueNotFound(_, context) {
            throw ForeignPayloadRefusal(.malformed, "\(path(context)): null")
        } catch {
            throw ForeignPayloadRefusal(.malformed, "not JSON: \(preview(payload))")
        }
    }

    /// The payload's first bytes, printable, for a message.
    static func preview(_ payload: UnsafeRawBufferPointer) -> String {
        let head = payload.prefix(60).map { $0 >= 0x20 && $0 < 0x7F ? Character(UnicodeScalar($0)) : "." }
        return "'\(String(head))\(payload.count > 60 ? "…" : "")'"
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let keys = context.codingPath.map(\.stringValue).joined(separator: ".")
        return keys.isEmpty ? "the payload" : "'\(keys)'"
    }
}
