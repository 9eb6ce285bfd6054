import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconPipeline
import BeaconStrategyKit

/// One alert from the configuration file's `alerts:` list: which beacons, which strategy with
/// which parameters, and what to say.
///
/// ```yaml
/// alerts:
///   - id: lobby-dwell
///     match: {uuid: 74278BDA-B644-4520-8F0C-720EAF059935}   # major/minor optional
///     strategy: time
///     parameters: {dwell: 60s, gap: 10s, maxTimeBeforeReset: 60s}
///     content: {title: Welcome, message: Hello}
/// ```
public struct AlertDefinition: Sendable {
    /// Unique id, handed back in every event.
    public var id: String
    /// The beacons the alert applies to.
    public var match: BeaconMatch
    /// The strategy key (`beacond strategies` lists them).
    public var strategy: String
    /// The strategy's parameters as written (validated by the strategy registry).
    public var parameters: ConfigNode?
    /// What the alert says.
    public var content: AlertContent
    /// What varies in it from one event to the next (`content.messages`, `{fields}`), if anything.
    public var variations: ContentVariations?
    /// When and how it is delivered (schedule, repeats, windows, cancellation, callbacks).
    public var policy: AlertPolicy
    /// Where the definition was written, `file:line` of its `strategy:` (`nil`: not from a file),
    /// for the errors found when its strategy is built.
    public var origin: String?

    public init(
        id: String, match: BeaconMatch, strategy: String, parameters: ConfigNode?, content: AlertContent,
        policy: AlertPolicy = .default, origin: String? = nil, variations: ContentVariations? = nil
    ) {
        self.origin = origin
        self.variations = variations
        self.id = id
        self.match = match
        self.strategy = strategy
        self.parameters = parameters
        self.content = content
        self.policy = policy
    }

    static let keys = ["id", "match", "strategy", "parameters", "content"] + AlertPolicy.configurationKeys

    /// The rule the alert engine applies to this definition.
    public var rule: AlertRule { AlertRule(id: id, content: content, policy: policy, variations: variations) }

    /// The alert as the pipeline runs it (its origin is where its parameters were written, or
    /// without parameters its `strategy:`).
    public func pipelineAlert() throws(ConfigurationError) -> PipelineAlert {
        PipelineAlert(
            id: id, match: match, strategy: strategy, parameters: try parameters?.strategyParameters() ?? [:],
            rule: rule, origin: place)
    }

    /// Where errors about the alert's strategy point: its parameters, or its `strategy:`.
    var place: String? { parameters.map { "\($0.file):\($0.line ?? 1)" } ?? origin }

    /// Reads one definition, checking every key; a `match: {tag: …}` selects the beacons of
    /// `beacons` with that tag (a tag none of them has is an error).
    public init(node: ConfigNode, beacons: BeaconDirectory = .empty, people: [Person] = []) throws(ConfigurationError) {
        try node.checkKeys(allowed: Self.keys)
        id = try node.required("id").string()
        guard !id.isEmpty else { throw node.error("'id' must not be empty") }
        match =
            try node["match"].map { node throws(ConfigurationError) in
                try BeaconMatch(node: node).resolved(in: beacons, people: people, at: node)
            } ?? .any
        let strategyNode = try node.required("strategy")
        strategy = try strategyNode.string()
        origin = "\(strategyNode.file):\(strategyNode.line ?? 1)"
        parameters = node["parameters"]
        if let parameters, !parameters.isMapping { throw parameters.error("expected a mapping of parameter: value") }
        content = try node["content"].map { node throws(ConfigurationError) in try AlertContent(node: node) } ?? AlertContent()
        policy = try AlertPolicy(alertNode: node)
        variations = try node["content"].flatMap { node throws(ConfigurationError) in
            try ContentVariations(contentNode: node)
        }
    }
}

extension BeaconMatch {
    /// The match with its tag's beacons taken from `beacons`; a tag no named beacon has is an
    /// error at `node` (a misspelt tag would otherwise match nothing, silently).
    func resolved(
        in beacons: BeaconDirectory, people: [Person] = [], at node: ConfigNode
    ) throws(ConfigurationError) -> BeaconMatch {
        if case .person(let name, _) = constraint {
            guard let person = people.first(where: { $0.isNamed(name) }) else {
                throw node.error(
                    "no person is named '\(name)'"
                        + (people.isEmpty
                            ? "; name them with people: [{name: …, devices: […]}]"
                            : "; people: \(people.map(\.name).joined(separator: ", "))"))
            }
            return BeaconMatch(.person(person.name, ids: Set(person.members)))
        }
        // With pseudonyms, a device is known by the id the configuration wrote as an alias.
        if case .identity(let id) = constraint, id.kind == .device, beacons[id] == nil,
            let name = id.deviceName, let alias = beacons.aliases[name]
        {
            return BeaconMatch(.identity(alias))
        }
        if case .identity(let id) = constraint, id.kind == .device, beacons[id] == nil {
            let enrolled = beacons.beacons.compactMap(\.id.deviceName)
            throw node.error(
                "no device is enrolled as '\(id.deviceName ?? "")'"
                    + (enrolled.isEmpty
                        ? "; enroll it with devices: [{id: …, irk: FILE}]" : "; enrolled: \(enrolled.joined(separator: ", "))"))
        }
        guard case .tagged(let tag, _) = constraint else { return self }
        guard beacons.tags.contains(tag) else {
            let known = beacons.tags
            throw node.error(
                "no beacon under beacons: has the tag '\(tag)'"
                    + (known.isEmpty
                        ? "; name beacons with beacons: [{id: …, name: …, tags: [\(tag)]}]"
                        : "; tags: \(known.joined(separator: ", "))"))
        }
        return .tagged(tag, in: beacons)
    }

    static let keys = ["uuid", "major", "minor", "namespace", "instance", "tag", "device", "person"]

    /// Reads `{uuid, major?, minor?}`, `{namespace, instance?}`, `{tag: staff}` (the named
    /// beacons with that tag: `BeaconMatch.resolved(in:)` fills them in from `beacons:`) or
    /// `{device: ada-phone}` (an enrolled device); an empty mapping or `any` matches every beacon.
    public init(node: ConfigNode) throws(ConfigurationError) {
        if node.scalarText?.lowercased() == "any" {
            self = .any
            return
        }
        try node.checkKeys(allowed: Self.keys)
        if let person = node["person"] {
            if let other = Self.keys.first(where: { $0 != "person" && node[$0] != nil }) {
                throw node.error("give either person or '\(other)', not both: a person selects what they carry")
            }
            self.init(.person(try person.string(), ids: []))
            return
        }
        if let device = node["device"] {
            if let other = Self.keys.first(where: { $0 != "device" && node[$0] != nil }) {
                throw node.error("give either device or '\(other)', not both: a device is one identity")
            }
            let name = try device.string()
            guard let id = BeaconID.device(named: name) else {
                throw device.error("'\(name)' is not a device id: use the id it is enrolled under in devices:")
            }
            self.init(.identity(id))
            return
        }
        if let tag = node["tag"] {
            if let other = ["uuid", "major", "minor", "namespace", "instance"].first(where: { node[$0] != nil }) {
                throw node.error("give either tag or '\(other)', not both: a tag selects named beacons by itself")
            }
            self.init(.tagged(try tag.string(), ids: []))
            return
        }
        if let uuid = node["uuid"] {
            if node["namespace"] != nil || node["instance"] != nil {
                throw node.error("give either uuid (with major/minor) or namespace (with instance), not both")
            }
            let major = try node["major"].map { n throws(ConfigurationError) in UInt16(try n.integer(in: 0...65535)) }
            let minor = try node["minor"].map { n throws(ConfigurationError) in UInt16(try n.integer(in: 0...65535)) }
            if minor != nil && major == nil { throw node.error("'minor' needs 'major'") }
            self.init(.uuid(try uuid.uuid(), major: major, minor: minor))
        } else if let namespace = node["namespace"] {
            let text = try namespace.string().lowercased()
            guard text.count == 20, text.allSatisfy(\.isHexDigit) else {
                throw namespace.error("expected a 10-byte Eddystone namespace as 20 hex digits")
            }
            let instance = try node["instance"].map { n throws(ConfigurationError) -> String in
                let t = try n.string().lowercased()
                guard t.count == 12, t.allSatisfy(\.isHexDigit) else {
                    throw n.error("expected a 6-byte Eddystone instance as 12 hex digits")
                }
                return t
            }
            self.init(.eddystone(namespaceHex: text, instanceHex: instance))
        } else if node["major"] != nil || node["minor"] != nil {
            throw node.error("'major'/'minor' need 'uuid'")
        } else {
            self = .any
        }
    }
}

extension AlertContent {
    static let keys = ["title", "message", "messages", "pick", "actionURL", "button", "sound", "identifier", "data"]

    /// Reads the `content:` mapping (its `message` is the first of `messages` when it has a list;
    /// `ContentVariations.init(contentNode:)` reads what varies).
    public init(node: ConfigNode) throws(ConfigurationError) {
        try node.checkKeys(allowed: Self.keys)
        var message = try node["message"]?.string()
        if message == nil { message = try Self.firstMessage(of: node) }
        self.init(
            title: try node["title"]?.string(), message: message,
            actionURL: try node["actionURL"]?.string(), button: try node["button"]?.string(),
            sound: try node["sound"]?.string(), identifier: try node["identifier"]?.string())
        if let data = node["data"] {
            for (key, value) in try data.mapping() { self.data[key] = try value.string() }
        }
    }
}

extension AlertContent {
    /// The first of a content's `messages`, if it has a list.
    private static func firstMessage(of node: ConfigNode) throws(ConfigurationError) -> String? {
        guard let list = node["messages"], let first = try list.sequence().first else { return nil }
        return try first.string()
    }
}

extension ContentVariations {
    /// Reads what varies in a `content:` mapping: `{fields}` in `title` and `message`, or a list
    /// of `messages` with `pick` (`in-turn`, `random`, `by-day`); each template checked at its own
    /// line. `nil` when nothing varies.
    init?(contentNode node: ConfigNode) throws(ConfigurationError) {
        func template(_ node: ConfigNode) throws(ConfigurationError) -> ContentTemplate {
            let text = try node.string()
            do throws(ContentTemplateError) { return try ContentTemplate(parsing: text) } catch {
                throw node.error(error.description)
            }
        }
        if node["message"] != nil, let list = node["messages"] {
            throw list.error("give either 'message' or 'messages' (a list said in turn, at random or by day), not both")
        }
        var messages: [ContentTemplate] = []
        if let list = node["messages"] {
            let items = try list.sequence()
            guard !items.isEmpty else { throw list.error("'messages' is empty: give at least one message") }
            for item in items { messages.append(try template(item)) }
        } else if let message = node["message"] {
            messages = [try template(message)]
        }
        var pick = MessagePick.inTurn
        if let pickNode = node["pick"] {
            guard node["messages"] != nil else {
                throw pickNode.error("'pick' chooses among 'messages': give a list of messages, or remove 'pick'")
            }
            let text = try pickNode.string()
            do throws(AlertPolicyError) { pick = try MessagePick(parsing: text) } catch {
                throw pickNode.error(error.description)
            }
        }
        let title = try node["title"].map { n throws(ConfigurationError) in try template(n) }
        self.init(title: title, messages: messages, pick: pick)
    }
}
