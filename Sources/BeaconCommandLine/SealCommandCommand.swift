import ArgumentParser
import BeaconControl
import BeaconCore
import BeaconSiteReport
import Foundation

/// `beacond seal-command --name NAME --key-file FILE ACTION [COMMAND]`: prints an answer command
/// sealed with a key of the daemon's `commands.keys`, to publish under
/// `beacond/<gateway>/commands/ACTION` (e.g. `mosquitto_pub -t … -s`).
struct SealCommandCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seal-command",
        abstract:
            "Seals an MQTT answer command with an operator's key (commands.keys), for a daemon that takes only sealed ones.",
        discussion: """
            Prints the sealed command: its first line names the key, the sequence (this machine's clock in \
            nanoseconds) and the HMAC-SHA-256; the command follows. Publish it within a minute, once: the \
            daemon refuses a sequence it took already or one more than 60 s from its clock. Example:
              beacond seal-command --name head-nurse --key-file nurse.key dismiss \
            '{"beacon": "ibeacon:…:1:1", "suppress": "1d"}' | mosquitto_pub -t beacond/desk-gw/commands/dismiss -s
            """
    )

    @Option(help: ArgumentHelp("The key's name in commands.keys (the answer is recorded under it).", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("A file holding the key, in hexadecimal.", valueName: "file"))
    var keyFile: String

    @Argument(help: ArgumentHelp("acknowledge, dismiss or unsuppress.", valueName: "action"))
    var action: String

    @Argument(help: ArgumentHelp("The command: a JSON object, or an instance key.", valueName: "command"))
    var command: String

    func validate() throws {
        guard AlertAnswerCommand.actions.contains(action) else {
            throw ValidationError("no such action '\(action)': use acknowledge, dismiss or unsuppress")
        }
    }

    func run() throws {
        guard let data = FileManager.default.contents(atPath: keyFile) else {
            throw ValidationError("cannot read the key file \(keyFile): check that it exists and that you may read it")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let key = GatewayKey(hex: text) else {
            throw ValidationError("the key file \(keyFile) must hold 32 to 128 hexadecimal digits")
        }
        let sequence = UInt64(clamping: WallClock().now.nanosecondsSinceEpoch)
        let sealed = CommandSeal.seal(Array(command.utf8), action: action, name: name, sequence: sequence, key: key.bytes)
        FileHandle.standardOutput.write(Data(sealed))
    }
}
