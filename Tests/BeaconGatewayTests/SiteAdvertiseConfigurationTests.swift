import BeaconBlueZ
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconSiteReport
import Testing

/// `site.advertise`, `site.advertisePower` and `site.advertiseInterval` in a gateway's `site:`
/// section: read, range-checked at their line, refused where there is no radio, and turned into
/// the scanner's advertisement of `SiteGatewayBeacon.identity(site:gateway:)`.
@Suite("site.advertise")
struct SiteAdvertiseConfigurationTests {
    static func read(_ yaml: String) throws(ConfigurationError) -> GatewayConfiguration {
        try GatewayConfiguration(node: ConfigNode(yaml: yaml, file: "gw.yaml"))
    }

    @Test("advertise: true on a radio: the scanner advertises the gateway's identity with the given power and interval")
    func radioGateway() throws {
        let config = try Self.read(
            """
            source: {hci: hci0}
            site: {name: museum, gateway: hall-nw, advertise: true, advertisePower: -62, advertiseInterval: 200ms}
            """)
        let site = try #require(config.site)
        #expect(site.advertise && site.advertisePower == -62 && site.advertiseInterval == .milliseconds(200))
        #expect(site.advertisedIdentity == SiteGatewayBeacon.identity(site: "museum", gateway: "hall-nw"))
        guard case .hci(let radio) = config.source else {
            Issue.record("not a radio source")
            return
        }
        let scanner = try radio.scannerConfiguration(advertising: try site.advertising())
        let advertising = try #require(scanner.advertising)
        #expect(advertising.identity == SiteGatewayBeacon.identity(site: "museum", gateway: "hall-nw"))
        #expect(advertising.measuredPower == -62)
        #expect(advertising.interval == .milliseconds(200))
        #expect(advertising.advertisingData.last == UInt8(bitPattern: -62))
    }

    @Test("Defaults: no advertising; with advertise: true, -59 dBm every 100 ms")
    func defaults() throws {
        let off = try #require(try Self.read("source: {hci: hci0}\nsite: {name: museum, gateway: a}\n").site)
        #expect(!off.advertise)
        #expect(try off.advertising() == nil)
        let on = try #require(try Self.read("source: {hci: hci0}\nsite: {name: museum, gateway: a, advertise: true}\n").site)
        let advertising = try #require(try on.advertising())
        #expect(advertising.measuredPower == -59 && advertising.interval == .milliseconds(100))
    }

    @Test(
        "Refused at its line: values out of range, and advertise: true without a radio",
        arguments: [
            ("source: {hci: hci0}\nsite: {name: m, gateway: a, advertise: yes-please}\n", "gw.yaml:2", "advertise"),
            (
                "source: {hci: hci0}\nsite: {name: m, gateway: a, advertise: true, advertisePower: 5}\n", "gw.yaml:2",
                "advertisePower"
            ),
            ("source: {hci: hci0}\nsite:\n  name: m\n  gateway: a\n  advertiseInterval: 50ms\n", "gw.yaml:5", "100ms"),
            (
                "source: {simulate: site.yaml}\nsite:\n  name: m\n  gateway: a\n  advertise: true\n", "gw.yaml:5",
                "set advertise: true on the gateway's entry"
            ),
            ("source: {replay: a.btsnoop}\nsite:\n  name: m\n  gateway: a\n  advertise: true\n", "gw.yaml:5", "a replay"),
        ])
    func refused(yaml: String, place: String, says: String) {
        do {
            _ = try Self.read(yaml)
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.description.hasPrefix(place), "\(error)")
            #expect(error.description.contains(says), "\(error)")
        }
    }

    @Test("The metrics say whether the adapter advertises: 1 while it does, 0 once the controller refused")
    func metric() throws {
        let metrics = GatewayMetrics()
        let advertising = try BeaconAdvertising(identity: SiteGatewayBeacon.identity(site: "m", gateway: "a"))
        metrics.record(.advertising(adapter: "hci0", advertising, commands: .legacy))
        #expect(metrics.render().contains("beacond_gateway_advertising 1"))
        let refusal = BlueZScannerError.commandFailed(
            adapter: "hci0", command: .leSetAdvertisingParameters, status: .commandDisallowed)
        metrics.record(.advertisingRefused(adapter: "hci0", refusal))
        #expect(metrics.render().contains("beacond_gateway_advertising 0"))
    }
}
