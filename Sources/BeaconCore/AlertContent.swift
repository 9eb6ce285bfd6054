/// What an alert says, attached to beacons by configuration.
///
/// Every event of an alert carries its content, so the fields live in one shared, immutable
/// box: copying a content (into each event, out of the rule) is one reference count instead of
/// seven, and events share their rule's content instead of copying it. Setting a field replaces
/// the box (contents are set up once, from configuration).
public struct AlertContent: Hashable, Sendable {
    private var storage: Storage

    /// Short title.
    public var title: String? {
        get { storage.fields.title }
        set { update { $0.title = newValue } }
    }
    /// Body text.
    public var message: String? {
        get { storage.fields.message }
        set { update { $0.message = newValue } }
    }
    /// A URL to open when the alert is acted on.
    public var actionURL: String? {
        get { storage.fields.actionURL }
        set { update { $0.actionURL = newValue } }
    }
    /// The label of the action button.
    public var button: String? {
        get { storage.fields.button }
        set { update { $0.button = newValue } }
    }
    /// A sound name for clients that play one.
    public var sound: String? {
        get { storage.fields.sound }
        set { update { $0.sound = newValue } }
    }
    /// An opaque value handed back in every event (e.g. a record key in the caller's system).
    public var identifier: String? {
        get { storage.fields.identifier }
        set { update { $0.identifier = newValue } }
    }
    /// Free-form key/value data, passed through unchanged.
    public var data: [String: String] {
        get { storage.fields.data }
        set { update { $0.data = newValue } }
    }

    /// Creates a content (an empty one shares one box: no allocation).
    public init(
        title: String? = nil, message: String? = nil, actionURL: String? = nil, button: String? = nil,
        sound: String? = nil, identifier: String? = nil, data: [String: String] = [:]
    ) {
        let fields = Fields(
            title: title, message: message, actionURL: actionURL, button: button, sound: sound, identifier: identifier,
            data: data)
        storage = fields.isEmpty ? Storage.empty : Storage(fields)
    }

    /// Equal when every field is.
    public static func == (a: AlertContent, b: AlertContent) -> Bool {
        a.storage === b.storage || a.storage.fields == b.storage.fields
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) { hasher.combine(storage.fields) }

    private mutating func update(_ body: (inout Fields) -> Void) {
        var fields = storage.fields
        body(&fields)
        storage = Storage(fields)
    }

    /// The fields, as they were stored inline.
    private struct Fields: Hashable, Sendable {
        var title: String?
        var message: String?
        var actionURL: String?
        var button: String?
        var sound: String?
        var identifier: String?
        var data: [String: String]

        var isEmpty: Bool {
            title == nil && message == nil && actionURL == nil && button == nil && sound == nil && identifier == nil
                && data.isEmpty
        }
    }

    /// The shared, immutable box.
    private final class Storage: Sendable {
        static let empty = Storage(
            Fields(title: nil, message: nil, actionURL: nil, button: nil, sound: nil, identifier: nil, data: [:]))
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }
}
