import BeaconCore
import Logging

/// How the daemon writes a log record: one line each, the message before its metadata.
///
/// | format | a line |
/// |---|---|
/// | `text` | `2026-11-30T07:30:55.123Z warning [BeaconGateway] sink 'hook': delivery failed … attempt=1 delay=1.17s` |
/// | `logfmt` | `time=2026-11-30T07:30:55.123Z level=warning source=BeaconGateway msg="sink 'hook': …" attempt=1` |
/// | `json` | `{"time":"2026-11-30T07:30:55.123Z","level":"warning","source":"BeaconGateway","message":"…","attempt":"1"}` |
///
/// Under journald (``isJournal``) each line starts with its syslog priority (`<4>` for a
/// warning), which journald takes off and files — `journalctl -p warning` selects by it — and
/// `text` and `logfmt` leave the time out, which the journal already records.
public struct LogLineFormat: Sendable, Equatable {
    /// The three shapes of a line.
    public enum Style: String, Sendable, CaseIterable {
        case text, json, logfmt
    }

    /// The shape of each line.
    public var style: Style
    /// Whether standard error is the journal's stream: lines get a priority prefix and no time.
    public var isJournal: Bool

    /// A format.
    public init(style: Style = .text, isJournal: Bool = false) {
        self.style = style
        self.isJournal = isJournal
    }

    /// The syslog priority of `level` (sd-daemon(3)'s `<N>` prefixes): debug 7 … critical 2.
    public static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// The record as one line (without its newline): `message` and `metadata` (sorted by key)
    /// from `source` at `level`, logged at `time`. Newlines in the message become `\n` so that
    /// one record stays one line.
    public func line(
        level: Logger.Level, message: String, metadata: Logger.Metadata, source: String, time: Timestamp
    ) -> String {
        var line = isJournal ? "<\(Self.priority(of: level))>" : ""
        let members = metadata.sorted { $0.key < $1.key }.map { ($0.key, "\($0.value)") }
        switch style {
        case .text:
            if !isJournal { line += time.rfc3339String + " " }
            line += "\(level) [\(source)] " + Self.oneLine(message)
            for (key, value) in members { line += " \(key)=" + Self.logfmtValue(value) }
        case .logfmt:
            if !isJournal { line += "time=\(time.rfc3339String) " }
            line += "level=\(level) source=\(Self.logfmtValue(source)) msg=" + Self.logfmtValue(message)
            for (key, value) in members { line += " \(Self.logfmtKey(key))=" + Self.logfmtValue(value) }
        case .json:
            var json = JSONWriter()
            json.object { object in
                object.member("time", time.rfc3339String)
                object.member("level", "\(level)")
                object.member("source", source)
                object.member("message", message)
                for (key, value) in members {
                    // A field of the record's own keeps its place; the metadata's goes beside it.
                    object.member(["time", "level", "source", "message"].contains(key) ? "meta." + key : key, value)
                }
            }
            line += json.string
        }
        return line
    }

    /// `message` with its line breaks written `\n`.
    static func oneLine(_ message: String) -> String {
        guard message.contains(where: \.isNewline) else { return message }
        return message.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: "\\n")
    }

    /// A logfmt value: as it is when it is a plain word, quoted (with `\"`, `\\` and `\n`) when it
    /// is empty or holds a space, `=`, `"` or a control character.
    static func logfmtValue(_ value: String) -> String {
        let plain =
            !value.isEmpty
            && value.unicodeScalars.allSatisfy { scalar in
                scalar.value > 0x20 && scalar != "=" && scalar != "\"" && scalar != "\\" && scalar.value != 0x7F
            }
        if plain { return value }
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    quoted +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }

    /// A logfmt key: its characters that could not stand in one (space, `=`, `"`) become `_`.
    static func logfmtKey(_ key: String) -> String {
        String(key.map { $0 == " " || $0 == "=" || $0 == "\"" || $0.isNewline ? "_" : $0 })
    }
}
