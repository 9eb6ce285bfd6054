import BeaconAlertEngine
import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconMQTT
import Foundation
import Logging
import ServiceLifecycle

/// Takes answers to the daemon's alerts over MQTT, for an `mqtt` sink with `commands: true`:
/// `beacond/<gateway>/commands/acknowledge`, `…/dismiss` and `…/unsuppress`, each with the
/// instance key as its whole payload, or a JSON object of `AlertAnswerCommand`'s
/// fields (`{"instance": …, "by": …}`, `{"beacon": …}`, `{"alert": …, "beacon": …}`). What became
/// of each — the answer's receipt, or the error in words — is published (QoS 1, not retained) to
/// `…/commands/result`, and the answer's event goes to the sinks like any other.
///
/// Its own connection (client id `beacond-<gateway>-commands`), subscribed at QoS 0: a command
/// sent while the daemon is down is not queued for it, and a repeated one is harmless (answers
/// are idempotent).
final class MQTTCommandService: Service {
    let settings: MQTTSinkSettings
    let answer: @Sendable (AlertAnswerRequest) async throws -> AlertAnswerOutcome
    let logger: Logger

    init(
        settings: MQTTSinkSettings, logger: Logger,
        answer: @escaping @Sendable (AlertAnswerRequest) async throws -> AlertAnswerOutcome
    ) {
        self.settings = settings
        self.answer = answer
        self.logger = logger
    }

    /// The request a command message asks for, or what is wrong with it.
    static func request(topic: String, payload: [UInt8], prefix: String) -> Result<AlertAnswerRequest, AlertAnswerCommandError> {
        let action = topic.hasPrefix(prefix + "/") ? String(topic.dropFirst(prefix.count + 1)) : topic
        guard payload.count <= 4096 else {
            return .failure(
                AlertAnswerCommandError(description: "a command of \(payload.count) bytes is too long (at most 4096)"))
        }
        var fields: [String: String] = [:]
        let text = String(decoding: payload, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("{") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                return .failure(
                    AlertAnswerCommandError(
                        description: "the command is not a JSON object: send {\"instance\": \"…\", \"by\": \"…\"}"))
            }
            for (key, value) in object {
                guard let string = value as? String else {
                    return .failure(AlertAnswerCommandError(description: "'\(key.prefix(40))' must be a string"))
                }
                fields[key] = string
            }
        } else if !text.isEmpty {
            fields["instance"] = text
        }
        return AlertAnswerCommand.request(action: action, fields: fields, channel: "mqtt")
    }

    func run() async throws {
        let prefix = settings.commandTopicPrefix
        let (messages, continuation) = AsyncStream.makeStream(of: (String, [UInt8]).self, bufferingPolicy: .bufferingNewest(100))
        var options = settings.connection
        options.statusTopic = nil
        let logger = logger
        let client = try MQTTSiteClient(
            host: settings.host, port: settings.port, options: options, clientID: "beacond-\(settings.gateway)-commands",
            subscriptions: AlertAnswerCommand.actions.map { "\(prefix)/\($0)" },
            onConnection: { connected, detail in
                if connected {
                    logger.notice("mqtt commands: \(detail), taking answers under \(prefix)/acknowledge|dismiss|unsuppress")
                } else {
                    logger.warning("mqtt commands: \(detail); reconnecting — answers sent meanwhile are not taken")
                }
            }
        ) { topic, payload in continuation.yield((topic, payload)) }
        defer { client.close() }
        await withGracefulShutdownHandler {
            for await (topic, payload) in messages {
                let result: String
                switch Self.request(topic: topic, payload: payload, prefix: prefix) {
                case .failure(let error):
                    result = Self.errorJSON(error.description, topic: topic)
                    logger.warning("mqtt commands: refused a command on \(topic): \(error)")
                case .success(let request):
                    do {
                        result = AlertAnswerCommand.json(for: try await answer(request))
                    } catch {
                        result = Self.errorJSON("\(error)", topic: topic)
                        logger.warning("mqtt commands: \(topic): \(error)")
                    }
                }
                _ = client.publishReliably(topic: "\(prefix)/result", payload: Array(result.utf8), retained: false)
            }
        } onGracefulShutdown: {
            continuation.finish()
        }
    }

    static func errorJSON(_ message: String, topic: String) -> String {
        var json = JSONWriter()
        json.object { object in
            object.member("topic", topic)
            object.member("error", message)
        }
        return json.string
    }
}
