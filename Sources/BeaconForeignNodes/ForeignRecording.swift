import BeaconCore
import FoundationEssentials

/// A foreign node's MQTT traffic recorded as JSON lines (`beacond record-mqtt`), one message a
/// line: `{"time": "<ISO 8601 receive time>", "topic": "…", "payload": "<the payload as received>"}`
/// — or, for a payload that is not UTF-8 text (a beacond gateway's binary report), its bytes in
/// base64 as `"payloadBase64"` in place of `"payload"`: every byte is kept.
///
/// Reading keeps every good line and names each bad one (`file:line: what`): a line cut short
/// by a crash, or garbled, costs that message only.
public struct ForeignRecording: Sendable {
    /// One recorded message.
    public struct Message: Hashable, Sendable {
        /// When the recorder received it.
        public var time: Timestamp
        /// Its topic.
        public var topic: String
        /// Its payload, as received.
        public var payload: [UInt8]

        /// Creates a message.
        public init(time: Timestamp, topic: String, payload: [UInt8]) {
            self.time = time
            self.topic = topic
            self.payload = payload
        }
    }

    /// The messages of the good lines, in file order.
    public var messages: [Message] = []
    /// The bad lines: `file:line: what is wrong`.
    public var errors: [String] = []

    private struct Line: Decodable {
        var time: String
        var topic: String
        var payload: String?
        var payloadBase64: String?
    }

    /// Reads a recording's text; `file` names it in errors.
    public init(text: some StringProtocol, file: String) {
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            guard !line.allSatisfy({ $0 == " " || $0 == "\r" || $0 == "\t" }) else { continue }
            guard let decoded = try? JSONDecoder().decode(Line.self, from: Data(line.utf8)) else {
                errors.append("\(file):\(number): not a recorded message {\"time\", \"topic\", \"payload\"}: \(line.prefix(60))")
                continue
            }
            guard let time = Timestamp(rfc3339: decoded.time) else {
                errors.append("\(file):\(number): time '\(decoded.time.prefix(40))' is not an ISO 8601 time")
                continue
            }
            let payload: [UInt8]
            switch (decoded.payload, decoded.payloadBase64) {
            case (let text?, nil):
                payload = Array(text.utf8)
            case (nil, let base64?):
                guard let bytes = Data(base64Encoded: base64) else {
                    errors.append("\(file):\(number): payloadBase64 is not base64: \(base64.prefix(40))")
                    continue
                }
                payload = Array(bytes)
            default:
                errors.append("\(file):\(number): a recorded message has one of payload (text) and payloadBase64 (bytes)")
                continue
            }
            messages.append(Message(time: time, topic: decoded.topic, payload: payload))
        }
    }

    /// One line of a recording for `message` (with its newline): its payload as text when it is
    /// UTF-8, else its bytes in base64 (`payloadBase64`).
    public static func line(_ message: Message) -> String {
        var json = JSONWriter()
        json.object { json in
            json.member("time", message.time.rfc3339String)
            json.member("topic", message.topic)
            if let text = String(validating: message.payload, as: UTF8.self) {
                json.member("payload", text)
            } else {
                json.member("payloadBase64", Data(message.payload).base64EncodedString())
            }
        }
        return json.string + "\n"
    }

    /// Whether `payload` is recorded as base64 (it is not UTF-8 text).
    public static func isBinary(_ payload: [UInt8]) -> Bool { String(validating: payload, as: UTF8.self) == nil }
}
