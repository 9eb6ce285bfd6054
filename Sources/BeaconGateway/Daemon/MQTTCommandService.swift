import BeaconAlertEngine
import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconMQTT
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Takes answers to the daemon's alerts over MQTT, for an `mqtt` sink with `commands:`:
/// `beacond/<gateway>/commands/acknowledge`, `…/dismiss`, `…/cancel` and `…/unsuppress`, each with the
/// instance key as its whole payload, or a JSON object of `AlertAnswerCommand`'s
/// fields (`{"instance": …}`, `{"beacon": …}`, `{"alert": …, "beacon": …}`). What became
/// of each — the answer's receipt, or the error in words — is published (QoS 1, not retained) to
/// `…/commands/result`, and the answer's event goes to the sinks like any other. A JSON command
/// may carry an `"id"` (a string of at most 64 characters) of the sender's choosing: its result
/// repeats it (`{"id": …, …}`), so a sender can tell its answer among the others.
///
/// **Who may answer** (``CommandAuthority``): with `commands.keys` or `commands.tokens`, only a
/// command sealed with a key (``CommandSeal``) or carrying a token is taken, and the answer is
/// recorded under the key's or token's name; anything else is refused. With `commands: true`
/// the channel is open: anyone who can publish there answers under the name they give (the
/// daemon says so when it starts).
///
/// **Floods.** Commands are checked as they arrive, on the MQTT client's thread: a refused one
/// never takes a place in the queue of those to answer, which holds up to ``queueLength`` (the
/// oldest are kept; a command past them is dropped and counted). Refusals are counted per reason
/// and logged like refused reports: the first of each reason at once, then one line a minute
/// with how many more; their error results are published at most ``refusalResultsPerSecond``
/// a second for each reason.
///
/// Its own connection (client id `beacond-<gateway>-commands`), subscribed at QoS 0: a command
/// sent while the daemon is down is not queued for it, and a repeated one is harmless (answers
/// are idempotent).
final class MQTTCommandService: Service {
    let settings: MQTTSinkSettings
    let authority: CommandAuthority
    let clock: AnyTimestampClock
    let answer: @Sendable (AlertAnswerRequest) async throws -> AlertAnswerOutcome
    let logger: Logger
    /// How many commands wait to be answered, at most.
    static let queueLength = 1000
    /// How many refused commands a second get an error result, per reason of refusal (a flood of
    /// one kind does not hide the answer to another).
    static let refusalResultsPerSecond = 10

    /// Refused and dropped commands, and what of them was logged and published.
    private struct Refusals {
        var counts: [CommandAuthority.Refusal: Int] = [:]
        var unlogged: [CommandAuthority.Refusal: Int] = [:]
        var lastLogged: [CommandAuthority.Refusal: Timestamp] = [:]
        var dropped = 0
        var resultSecond: [CommandAuthority.Refusal: Int64] = [:]
        var resultsThisSecond: [CommandAuthority.Refusal: Int] = [:]
    }

    private let refusals = Mutex(Refusals())

    init(
        settings: MQTTSinkSettings, clock: AnyTimestampClock, logger: Logger,
        answer: @escaping @Sendable (AlertAnswerRequest) async throws -> AlertAnswerOutcome
    ) {
        self.settings = settings
        authority = CommandAuthority(keys: settings.commandKeys, tokens: settings.commandTokens)
        self.clock = clock
        self.answer = answer
        self.logger = logger
    }

    /// How many commands were refused, by reason, and dropped from a full queue.
    var refused: (byReason: [CommandAuthority.Refusal: Int], dropped: Int) {
        refusals.withLock { ($0.counts, $0.dropped) }
    }

    /// The longest `"id"` a command may carry.
    static let maximumIDLength = 64

    /// The request a command message asks for, or what is wrong with it, and the command's `"id"`
    /// (to repeat in its result; `nil` when it has none, or no readable one).
    /// - Parameter by: the name the answer is recorded under (a key's or token's), instead of
    ///   the command's own `by`.
    static func request(
        topic: String, payload: [UInt8], prefix: String, by: String? = nil
    ) -> (request: Result<AlertAnswerRequest, AlertAnswerCommandError>, id: String?) {
        let action = topic.hasPrefix(prefix + "/") ? String(topic.dropFirst(prefix.count + 1)) : topic
        guard payload.count <= 4096 else {
            return (
                .failure(
                    AlertAnswerCommandError(description: "a command of \(payload.count) bytes is too long (at most 4096)")),
                nil
            )
        }
        var fields: [String: String] = [:]
        let text = String(decoding: payload, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("{") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                return (
                    .failure(
                        AlertAnswerCommandError(
                            description: "the command is not a JSON object: send {\"instance\": \"…\", \"by\": \"…\"}")),
                    nil
                )
            }
            let id = (object["id"] as? String).flatMap { $0.count <= maximumIDLength ? $0 : nil }
            for (key, value) in object {
                guard let string = value as? String else {
                    return (.failure(AlertAnswerCommandError(description: "'\(key.prefix(40))' must be a string")), id)
                }
                fields[key] = string
            }
            if let long = fields["id"], long.count > maximumIDLength {
                return (
                    .failure(
                        AlertAnswerCommandError(
                            description: "an id of \(long.count) characters is too long (at most \(maximumIDLength))")),
                    nil
                )
            }
        } else if !text.isEmpty {
            fields["instance"] = text
        }
        if let by { fields["by"] = by }
        return (AlertAnswerCommand.request(action: action, fields: fields, channel: "mqtt"), fields["id"])
    }

    /// The `"id"` of a refused command, read only to repeat it in the refusal's result: the
    /// command inside a seal, or the payload.
    static func id(ofRefused payload: [UInt8]) -> String? {
        let command = CommandSeal.open(payload)?.command ?? payload
        guard command.count <= 4096, command.first == UInt8(ascii: "{"),
            let object = try? JSONSerialization.jsonObject(with: Data(command)) as? [String: Any],
            let id = object["id"] as? String, id.count <= maximumIDLength
        else { return nil }
        return id
    }

    func run() async throws {
        let prefix = settings.commandTopicPrefix
        let (messages, continuation) = AsyncStream.makeStream(
            of: (topic: String, accepted: CommandAuthority.Accepted).self, bufferingPolicy: .bufferingOldest(Self.queueLength))
        var options = settings.connection
        options.statusTopic = nil
        let logger = logger
        if authority.isOpen {
            logger.warning(
                "mqtt commands: the channel is open (commands: true): anyone who can publish to \(prefix)/# answers alerts under any name; set commands.keys (Docs/AlertEngine.md, \"Answers over MQTT\") or restrict the topics with the broker's ACL"
            )
        }
        let results = ResultPublisher(topic: "\(prefix)/result")
        let connected = try MQTTSiteClient(
            host: settings.host, port: settings.port, options: options, clientID: "beacond-\(settings.gateway)-commands",
            subscriptions: AlertAnswerCommand.actions.map { "\(prefix)/\($0)" },
            onConnection: { connected, detail in
                if connected {
                    logger.notice(
                        "mqtt commands: \(detail), taking answers under \(prefix)/acknowledge|dismiss|cancel|unsuppress")
                } else {
                    logger.warning("mqtt commands: \(detail); reconnecting — answers sent meanwhile are not taken")
                }
            }
        ) { [self] topic, payload in
            let action = topic.hasPrefix(prefix + "/") ? String(topic.dropFirst(prefix.count + 1)) : topic
            switch authority.check(action: action, payload: payload, now: clock.now) {
            case .success(let accepted):
                if case .dropped = continuation.yield((topic, accepted)) { noteDropped() }
            case .failure(let refusal):
                if let result = refuse(refusal, topic: topic, payload: payload) { results.publish(result) }
            }
        }
        results.client = connected
        defer {
            connected.close()
            logRefusalTotals()
        }
        await withGracefulShutdownHandler {
            for await (topic, accepted) in messages {
                let result: String
                let (request, id) = Self.request(
                    topic: topic, payload: accepted.command, prefix: prefix, by: accepted.name)
                switch request {
                case .failure(let error):
                    result = Self.errorJSON(error.description, topic: topic, id: id)
                    logger.warning("mqtt commands: refused a command on \(topic): \(error)")
                case .success(let request):
                    do {
                        result = AlertAnswerCommand.json(for: try await answer(request), id: id)
                    } catch {
                        result = Self.errorJSON("\(error)", topic: topic, id: id)
                        logger.warning("mqtt commands: \(topic): \(error)")
                    }
                }
                results.publish(result)
            }
        } onGracefulShutdown: {
            continuation.finish()
        }
    }

    /// Counts a refusal, logs it when its reason's minute has passed, and returns its error
    /// result when this second's share of them is not used up.
    private func refuse(_ refusal: CommandAuthority.Refusal, topic: String, payload: [UInt8]) -> String? {
        let now = clock.now
        let (log, held, publish) = refusals.withLock { state -> (Bool, Int, Bool) in
            state.counts[refusal, default: 0] += 1
            var log = false
            var held = 0
            if let last = state.lastLogged[refusal], now - last < .seconds(60) {
                state.unlogged[refusal, default: 0] += 1
            } else {
                log = true
                held = state.unlogged[refusal] ?? 0
                state.unlogged[refusal] = 0
                state.lastLogged[refusal] = now
            }
            let second = now.nanosecondsSinceEpoch / 1_000_000_000
            if second != state.resultSecond[refusal] {
                state.resultSecond[refusal] = second
                state.resultsThisSecond[refusal] = 0
            }
            state.resultsThisSecond[refusal, default: 0] += 1
            return (log, held, state.resultsThisSecond[refusal, default: 0] <= Self.refusalResultsPerSecond)
        }
        let message = Self.explanation(refusal)
        if log {
            logger.warning(
                "mqtt commands: refused a command on \(topic) (\(refusal.rawValue)): \(message)\(held > 0 ? " (and \(held) more for this reason since the last line)" : "")",
                metadata: ["reason": "\(refusal.rawValue)"])
        }
        guard publish else { return nil }
        return Self.errorJSON("refused (\(refusal.rawValue)): \(message)", topic: topic, id: Self.id(ofRefused: payload))
    }

    private func noteDropped() {
        let first = refusals.withLock { state in
            state.dropped += 1
            return state.dropped == 1
        }
        if first {
            logger.warning(
                "mqtt commands: \(Self.queueLength) commands wait already; dropping the newest until they are answered")
        }
    }

    private func logRefusalTotals() {
        let (counts, dropped) = refused
        guard !counts.isEmpty || dropped > 0 else { return }
        let parts = counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key.rawValue)" }
        logger.notice(
            "mqtt commands: refused \(parts.isEmpty ? "none" : parts.joined(separator: ", "))\(dropped > 0 ? "; \(dropped) dropped from a full queue" : "")"
        )
    }

    /// What a refusal means, and what to do.
    static func explanation(_ refusal: CommandAuthority.Refusal) -> String {
        switch refusal {
        case .unsigned:
            "this daemon takes only commands sealed with a key of commands.keys, or carrying a token of commands.tokens"
        case .unknownKey: "sealed with a key name that is not in commands.keys"
        case .malformedSeal: "the first line is not 'beacond-command v1 NAME SEQUENCE CODE'"
        case .badSignature: "the code is not the named key's for this command and action"
        case .replayed: "its sequence was taken already, or is more than 60 s from the daemon's clock (check the sender's clock)"
        case .badToken: "the token is none of commands.tokens"
        }
    }

    static func errorJSON(_ message: String, topic: String, id: String? = nil) -> String {
        var json = JSONWriter()
        json.object { object in
            object.member("id", id)
            object.member("topic", topic)
            object.member("error", message)
        }
        return json.string
    }
}

/// Publishes command results on the client the service made (set once it exists: the client's
/// own callback publishes refusals).
private final class ResultPublisher: Sendable {
    let topic: String
    private let slot = Mutex<MQTTSiteClient?>(nil)

    init(topic: String) { self.topic = topic }

    var client: MQTTSiteClient? {
        get { slot.withLock { $0 } }
        set { slot.withLock { $0 = newValue } }
    }

    func publish(_ result: String) {
        _ = client?.publishReliably(topic: topic, payload: Array(result.utf8), retained: false)
    }
}
