import ArgumentParser
import BeaconCore
import BeaconDaemonConfiguration
import BeaconDevices
import BeaconWire

/// `beacond devices FILE...`: what the captures hear that is not a beacon nor enrolled, strongest
/// first, so that a person can find their own phone by standing next to a gateway.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the devices the captures hear that are neither beacons nor enrolled, strongest first.",
        discussion: """
            Record near a gateway with your phone in your hand (`beacond scan --duration 1m --record here.btsnoop`, \
            or the gateway's own recording), then list what was heard: address, address type (a phone advertises \
            from a resolvable private address that changes every ~15 minutes), the strongest RSSI and the file it \
            was heard in (one file per gateway tells which gateway is nearest), reports, and the name and \
            manufacturer when the device advertises them. Exit status 2 when a file cannot be read. With --config, devices enrolled under devices: are \
            resolved and left out (--all shows them). To enroll a phone, see `beacond irk check` and Docs/Devices.md.
            """)

    @Argument(help: "Captures to read (btsnoop, pcap, pcapng): one per gateway, or one.")
    var files: [String]

    @Option(help: "A configuration whose devices: are resolved (and left out unless --all).")
    var config: String?

    @Flag(help: "Also list beacons and enrolled devices.")
    var all = false

    @Option(help: "Show at most this many devices.")
    var limit = 20

    @Flag(help: "One JSON object per device instead of a table.")
    var json = false

    func run() throws {
        try CommandProblem.exitingWithStatus2(list)
    }

    func list() throws {
        var resolver: PrivateAddressResolver?
        if let config {
            let configuration = try GatewayConfiguration.load(path: config)
            if !configuration.devices.isEmpty { resolver = PrivateAddressResolver(devices: configuration.devices) }
        }
        let heard = HeardDevices(resolver: resolver)
        try CaptureAdvertisements.forEach(in: files) { report, time, file in heard.add(report, at: time, gateway: file) }
        let listed = Array(
            (all ? heard.devices.sorted { ($0.strongestRSSI ?? -128) > ($1.strongestRSSI ?? -128) } : heard.unenrolled)
                .prefix(limit))
        var output = StandardOutput()
        if json {
            for device in listed { output.write(Self.json(device)) }
        } else {
            output.write(Self.table(listed))
        }
        output.flush()
        let hidden = heard.devices.count - heard.unenrolled.count
        printError(
            "\(heard.devices.count) addresses heard in \(files.count) file\(files.count == 1 ? "" : "s")"
                + (all ? "" : "; \(hidden) beacons or enrolled devices left out (--all shows them)")
                + (heard.dropped > 0 ? "; \(heard.dropped) more addresses not kept" : ""))
    }

    /// A device's address type in words.
    static func kind(_ device: HeardDevices.Device) -> String {
        switch device.addressType {
        case .random: device.randomKind.map { "random \($0.name)" } ?? "random"
        default: device.addressType.name
        }
    }

    /// Its manufacturer: `0x004c Apple`, `0x1234`, or empty.
    static func manufacturer(_ device: HeardDevices.Device) -> String {
        guard let company = device.company else { return "" }
        let hex = String(company, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - hex.count) + hex
            + (HeardDevices.companyName(company).map { " \($0)" } ?? "")
    }

    static func table(_ devices: [HeardDevices.Device]) -> String {
        let header = ["address", "type", "strongest", "heard in", "reports", "name", "manufacturer", "enrolled as"]
        let rows = devices.map { device in
            [
                device.address.description, kind(device), device.strongestRSSI.map { "\($0) dBm" } ?? "-",
                device.strongestAt, "\(device.reports)", device.name ?? "", manufacturer(device),
                device.enrolledAs?.deviceName ?? (device.isBeacon ? "(beacon)" : ""),
            ]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            zip(row, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: "  ")
                .replacing(/\s+$/, with: "")
        }.joined(separator: "\n")
    }

    static func json(_ device: HeardDevices.Device) -> String {
        var json = JSONWriter()
        json.object { json in
            json.member("address", device.address.description)
            json.member("addressType", device.addressType.name)
            json.member("randomKind", device.randomKind?.name)
            json.member("strongestRSSI", device.strongestRSSI.map(Int.init))
            json.member("heardIn", device.strongestAt)
            json.member("reports", device.reports)
            json.member("name", device.name)
            json.member("manufacturer", device.company.map(Int.init))
            json.member("beacon", device.isBeacon)
            json.member("enrolledAs", device.enrolledAs?.deviceName)
        }
        return json.string
    }
}
