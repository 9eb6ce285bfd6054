import BeaconCore
import BeaconCrypto
import Foundation

/// What makes an alert say something different each time (`Docs/AlertEngine.md`, "Content per
/// occurrence"): templates in its title and message, and a list of messages taken in turn, at
/// random or by day. `nil` on a rule whose content is the same for every event, so that such an
/// alert costs nothing here.
public struct ContentVariations: Hashable, Sendable {
    /// The title, when it names a field.
    public var title: ContentTemplate?
    /// The messages (one, when the alert has a single `message` that names a field).
    public var messages: [ContentTemplate]
    /// Which message an event says, when there are several.
    public var pick: MessagePick

    /// Creates the variations; `nil` when nothing varies (no field, at most one message).
    public init?(title: ContentTemplate?, messages: [ContentTemplate], pick: MessagePick = .inTurn) {
        let title = title.flatMap { $0.isConstant ? nil : $0 }
        guard title != nil || messages.count > 1 || messages.contains(where: { !$0.isConstant }) else { return nil }
        self.title = title
        self.messages = messages
        self.pick = pick
    }

    /// Whether a template names the beacon's room or dwell (the pipeline then keeps the latest
    /// cycle's beacons to fill them in).
    public var needsBeacons: Bool {
        let fields = (title?.fields ?? []) + messages.flatMap(\.fields)
        return fields.contains(.room) || fields.contains(.dwell)
    }

    /// The message of the delivery numbered `turn` (0 for the alert's first delivery for the
    /// beacon, then 1… for each later delivery or reminder), due at `due`.
    public func message(turn: Int, due: Timestamp, context: ContentContext) -> ContentTemplate? {
        guard !messages.isEmpty else { return nil }
        let count = messages.count
        switch pick {
        case .inTurn:
            return messages[max(0, turn) % count]
        case .byDay:
            return messages[Int(((context.localDay % Int64(count)) + Int64(count)) % Int64(count))]
        case .random:
            let seed = "\(context.alertID)|\(context.beacon)|\(due.nanosecondsSinceEpoch)|\(context.attempt)"
            let digest = SHA256Hasher.hash(Array(seed.utf8))
            let word = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return messages[Int(word % UInt64(count))]
        }
    }

    /// `content` with its title and message filled in for one event.
    public func render(_ content: AlertContent, turn: Int, due: Timestamp, context: ContentContext) -> AlertContent {
        var rendered = content
        if let title { rendered.title = title.render(context) }
        if let message = message(turn: turn, due: due, context: context) { rendered.message = message.render(context) }
        return rendered
    }
}
