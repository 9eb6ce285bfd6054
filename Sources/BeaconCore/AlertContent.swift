/// What an alert says, attached to beacons by configuration.
public struct AlertContent: Hashable, Sendable {
    /// Short title.
    public var title: String?
    /// Body text.
    public var message: String?
    /// A URL to open when the alert is acted on.
    public var actionURL: String?
    /// The label of the action button.
    public var button: String?
    /// A sound name for clients that play one.
    public var sound: String?
    /// An opaque value handed back in every event (e.g. a record key in the caller's system).
    public var identifier: String?
    /// Free-form key/value data, passed through unchanged.
    public var data: [String: String]

    public init(
        title: String? = nil, message: String? = nil, actionURL: String? = nil, button: String? = nil,
        sound: String? = nil, identifier: String? = nil, data: [String: String] = [:]
    ) {
        self.title = title
        self.message = message
        self.actionURL = actionURL
        self.button = button
        self.sound = sound
        self.identifier = identifier
        self.data = data
    }
}
