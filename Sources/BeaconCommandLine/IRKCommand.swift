import ArgumentParser
import BeaconCore
import BeaconCrypto
import BeaconDevices
import BeaconWire

/// `beacond irk check KEYFILE FILE...`: which byte order of a written key resolves the private
/// addresses the captures hear.
struct IRKCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "irk",
        abstract: "Check identity resolving keys against what was heard.",
        subcommands: [Check.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Say whether a key resolves the private addresses in captures, and in which byte order.",
            discussion: """
                The key file (mode 0600) holds the key as Home Assistant or ESPresense show it (32 hex digits), as \
                BlueZ's info file or Theengs show it (the same digits reversed), as the Apple keychain gives it \
                (base64), or is a BlueZ info file. Hex and base64 leave the byte order open: both orders are tried \
                against every resolvable private address the captures hold, and the one that resolves is reported, \
                with the addresses. Record them near the device (`beacond scan --duration 1m --record here.btsnoop`). \
                The key itself is never printed. Exit status: 0 when the key resolves an address, 1 when it \
                resolves none, 2 when the key file or a capture cannot be read.
                """)

        @Argument(help: "The key file (owner-only: chmod 600).")
        var keyFile: String

        @Argument(help: "Captures to read (btsnoop, pcap, pcapng).")
        var files: [String]

        func run() throws {
            try CommandProblem.exitingWithStatus2(check)
        }

        func check() throws {
            let text: IdentityResolvingKeyText
            do {
                text = try IdentityResolvingKeyFile.read(keyFile)
            } catch {
                throw CommandProblem("\(error)")
            }
            var addresses: [BluetoothAddress: (rssi: Int8?, file: String)] = [:]
            var heard = 0
            try CaptureAdvertisements.forEach(in: files) { report, _, file in
                heard += 1
                guard report.address.isResolvablePrivate(type: report.addressType) else { return }
                let strongest = addresses[report.address]?.rssi
                if let rssi = report.rssi, strongest.map({ rssi > $0 }) ?? true {
                    addresses[report.address] = (rssi, file)
                } else if addresses[report.address] == nil {
                    addresses[report.address] = (nil, file)
                }
            }
            var output = StandardOutput()
            let form = text.isOrderAmbiguous ? "its byte order is open, so both were tried" : "its byte order is settled"
            output.write(
                "\(keyFile): \(Self.formName(text.form)); \(form) against \(addresses.count) resolvable private "
                    + "address\(addresses.count == 1 ? "" : "es") (of \(heard) reports in \(files.count) file\(files.count == 1 ? "" : "s"))"
            )
            var resolving: IdentityResolvingKeyOrder?
            for candidate in text.candidates {
                let resolved = addresses.filter { candidate.key.resolves($0.key, type: .random) }
                    .sorted { ($0.value.rssi ?? -128, $1.key) > ($1.value.rssi ?? -128, $0.key) }
                if resolved.isEmpty {
                    output.write("  \(candidate.order.rawValue) (\(candidate.order.writtenBy)): resolves none")
                } else {
                    resolving = resolving ?? candidate.order
                    let shown = resolved.prefix(3).map {
                        "\($0.key)" + ($0.value.rssi.map { " \($0) dBm" } ?? "") + " in \($0.value.file)"
                    }
                    output.write(
                        "  \(candidate.order.rawValue) (\(candidate.order.writtenBy)): resolves \(resolved.count): "
                            + shown.joined(separator: ", ") + (resolved.count > 3 ? ", …" : ""))
                }
            }
            if let resolving {
                output.write(
                    text.isOrderAmbiguous
                        ? "The key is \(resolving.rawValue). In devices:, add order: \(resolving.rawValue) (or leave it out: beacond keeps the order that resolves)."
                        : "The key resolves.")
            } else {
                output.write(
                    "The key resolves none of them: the device was not heard (was it near, with Bluetooth on?), or the key "
                        + "is another device's. `beacond devices FILE` lists what was heard.")
            }
            output.flush()
            if resolving == nil { throw ExitCode(1) }
        }

        static func formName(_ form: IdentityResolvingKeyText.Form) -> String {
            switch form {
            case .hex: "32 hexadecimal digits"
            case .base64: "base64 (as the Apple keychain gives it)"
            case .blueZInfo: "a BlueZ info file"
            }
        }
    }
}
