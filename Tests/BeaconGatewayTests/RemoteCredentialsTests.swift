import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconPipeline
import BeaconStrategies
import BeaconStrategyKit
import BeaconTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Remote alert documents that authenticate and report (issue 39, item 5), against a real HTTP
/// server on 127.0.0.1 that requires a bearer token: the token read from a file at each check, a
/// refusal kept apart from an unreachable server, every outcome reported, the last good set kept;
/// and environments chosen in the configuration.
@Suite("Remote alert definitions: credentials and environments", .serialized)
struct RemoteCredentialsTests {
    static let now = Timestamp(rfc3339: "2025-01-01T09:00:00Z")!

    /// The outcomes a remote reported, in order.
    final class Reports: Sendable {
        let names = Mutex<[String]>([])
    }

    static func remote(_ server: ConfigServer, tokenFile: String, reported: Reports) -> RemoteAlertDefinitions {
        var configuration = RemoteAlertsConfiguration(url: server.url, checkEvery: .seconds(60), timeout: .seconds(5))
        configuration.credentials = RemoteCredentials(file: tokenFile)
        return RemoteAlertDefinitions(
            configuration: configuration, fetcher: HTTPConfigurationFetcher(),
            report: { outcome, _ in reported.names.withLock { $0.append(outcome.name) } })
    }

    @Test("a wrong token is refused (not unreachable) and the last good set stays; the right one, read again, is taken")
    func bearerToken() async throws {
        let server = try await ConfigServer()
        defer { server.stop() }
        try server.serve(RemoteAlertDefinitionsTests.versionA)
        try server.require(token: "s3cret-token-1")
        let tokenFile = server.directory.appendingPathComponent("client.token").path
        try "wrong-token\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let reported = Reports()
        let remote = Self.remote(server, tokenFile: tokenFile, reported: reported)

        let refused = await remote.check(now: Self.now)
        guard case .refused(let why) = refused else {
            Issue.record("not refused: \(refused)")
            return
        }
        #expect(why.contains("HTTP 401") && why.contains(tokenFile), "\(why)")
        #expect(!why.contains("wrong-token"), "the secret is never in a message")
        #expect(await remote.definitions.isEmpty)
        #expect(server.authorizations.last == "Bearer wrong-token", "sent, trimmed of its line end")

        // The token rotated in its file: the next check reads it again.
        try "s3cret-token-1".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        #expect(await remote.check(now: Self.now + .seconds(60)) == .updated(["lobby-dwell"]))

        // The file gone: refused before any request, and the set in force stays.
        try FileManager.default.removeItem(atPath: tokenFile)
        let requests = server.authorizations.count
        let unreadable = await remote.check(now: Self.now + .seconds(120))
        #expect(unreadable.failure?.contains("cannot read the credentials file \(tokenFile)") == true, "\(unreadable)")
        #expect(server.authorizations.count == requests, "no request without credentials")
        let inForce = await remote.definitions
        #expect(inForce.map(\.id) == ["lobby-dwell"])
        #expect(reported.names.withLock { $0 } == ["refused", "updated", "refused"])
        #expect(await remote.lastCheck?.outcome == unreadable)
    }

    @Test(
        "mutual TLS: the document is fetched presenting the client certificate; one the server's authority did not sign is refused at the handshake"
    )
    func clientCertificate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-mtls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let strangerDirectory = directory.appendingPathComponent("stranger")
        try FileManager.default.createDirectory(at: strangerDirectory, withIntermediateDirectories: true)
        // openssl, waited for on a thread of its own (not the cooperative pool).
        let (certificates, client, stranger) = try await onOwnThread {
            let certificates = try TestCertificates(in: directory)
            let client = try certificates.issueClient(named: "gateway")
            return (certificates, client, try TestCertificates(in: strangerDirectory).issueClient(named: "stranger"))
        }
        let server = try await ConfigServer(certificates: certificates)
        defer { server.stop() }
        try server.serve(RemoteAlertDefinitionsTests.versionA)
        #expect(server.url.hasPrefix("https://127.0.0.1:"))

        func remote(_ certificate: (certificate: URL, key: URL)) -> RemoteAlertDefinitions {
            var configuration = RemoteAlertsConfiguration(url: server.url, checkEvery: .seconds(60), timeout: .seconds(10))
            configuration.tls = RemoteTLSFiles(
                certificate: certificate.certificate.path, key: certificate.key.path, authority: certificates.caFile.path)
            return RemoteAlertDefinitions(configuration: configuration, fetcher: HTTPConfigurationFetcher())
        }
        let refused = await remote(stranger).check(now: Self.now)
        #expect(refused.failure?.contains("TLS with a client certificate") == true, "\(refused)")
        #expect(server.authorizations.isEmpty, "no request got past the handshake")
        let trusted = remote(client)
        #expect(await trusted.check(now: Self.now) == .updated(["lobby-dwell"]))
        // Conditional like any fetch: the ETag comes back through libcurl too.
        #expect(await trusted.check(now: Self.now + .seconds(60)) == .unchanged)
        #expect(server.requests.last?.ifNoneMatch?.hasPrefix("\"") == true, "\(server.requests)")
    }

    @Test("signed documents: a good signature is taken; a wrong or missing one is a bad-signature check, the last good set kept")
    func signedDocuments() async throws {
        let server = try await ConfigServer()
        defer { server.stop() }
        try server.serve(RemoteAlertDefinitionsTests.versionA)
        try server.sign(with: "document-secret")
        let keyFile = server.directory.appendingPathComponent("client-signing.key").path
        try "document-secret\n".write(toFile: keyFile, atomically: true, encoding: .utf8)
        var configuration = RemoteAlertsConfiguration(url: server.url, checkEvery: .seconds(60), timeout: .seconds(5))
        configuration.signature = RemoteSignatureKey(file: keyFile)
        let remote = RemoteAlertDefinitions(configuration: configuration, fetcher: HTTPConfigurationFetcher())
        #expect(await remote.check(now: Self.now) == .updated(["lobby-dwell"]))

        // A new version signed with another key: refused, and the set in force stays.
        try server.serve(RemoteAlertDefinitionsTests.versionB)
        try server.sign(with: "someone-else")
        let forged = await remote.check(now: Self.now + .seconds(60))
        #expect(forged.name == "bad-signature", "\(forged)")
        #expect(forged.failure?.contains("not the HMAC-SHA256 of the document with the key in \(keyFile)") == true)
        #expect(!(forged.failure ?? "").contains("document-secret"), "the secret is never in a message")
        // Unsigned: refused too.
        try server.sign(with: nil)
        let unsigned = await remote.check(now: Self.now + .seconds(120))
        #expect(unsigned.failure?.contains("has no X-Beacond-Signature header") == true, "\(unsigned)")
        let inForce = await remote.definitions
        #expect(inForce.map(\.id) == ["lobby-dwell"])
        // Signed with the right key again: taken.
        try server.sign(with: "document-secret")
        #expect(await remote.check(now: Self.now + .seconds(180)) == .updated(["lobby-dwell", "hello"]))
    }

    static func configuration(_ alerts: String, in directory: URL) throws(ConfigurationError) -> GatewayConfiguration {
        try GatewayConfiguration(
            node: ConfigNode(
                yaml: "source: {simulate: lobby.yaml}\nsinks: [{type: jsonl, path: \"-\"}]\nalerts:\n\(alerts)",
                file: directory.appendingPathComponent("gw.yaml").path))
    }

    @Test(
        "environments: the one named is in force, with its url and credentials (a relative file from the configuration's directory)"
    )
    func environments() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-env-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "prod-token".write(to: directory.appendingPathComponent("prod.token"), atomically: true, encoding: .utf8)
        try "staging-key".write(to: directory.appendingPathComponent("staging.key"), atomically: true, encoding: .utf8)
        let environments = """
              environments:
                production: {url: "https://config.example.org/prod/alerts.yaml", auth: {bearerFile: prod.token}}
                staging: {url: "https://staging.example.org/alerts.yaml", auth: {header: X-Api-Key, valueFile: staging.key}}
            """
        let production = try #require(
            try Self.configuration("  environment: production\n\(environments)", in: directory).remoteAlerts)
        #expect(production.url == "https://config.example.org/prod/alerts.yaml")
        #expect(production.environment == "production")
        #expect(try production.credentials?.headerValue() == "Bearer prod-token")
        let staging = try #require(try Self.configuration("  environment: staging\n\(environments)", in: directory).remoteAlerts)
        #expect(staging.credentials?.header == "X-Api-Key")
        #expect(try staging.credentials?.headerValue() == "staging-key")
        #expect(staging.credentials?.file == directory.appendingPathComponent("staging.key").path)
    }

    @Test(
        "mistakes are refused at their line, saying what to write",
        arguments: [
            (
                "  url: https://a.example/alerts.yaml\n  auth: {bearerFile: missing.token}\n", "gw.yaml:5:",
                "cannot read the credentials file"
            ),
            ("  url: https://a.example/alerts.yaml\n  auth: {header: X-Key}\n", "gw.yaml:5:", "auth needs bearerFile"),
            (
                "  environment: prod\n  environments:\n    staging: {url: https://s.example/a.yaml}\n", "gw.yaml:4:",
                "no environment 'prod'"
            ),
            ("  environments:\n    staging: {url: https://s.example/a.yaml}\n", "gw.yaml:5:", "one of staging"),
            ("  url: https://a.example/alerts.yaml\n  environment: prod\n", "gw.yaml:5:", "there are none"),
            (
                "  url: https://a.example/alerts.yaml\n  tls: {cert: missing.pem, key: missing.key}\n", "gw.yaml:5:",
                "cannot read the client certificate"
            ),
            ("  url: https://a.example/alerts.yaml\n  tls: {cert: missing.pem}\n", "gw.yaml:5:", "tls needs cert and key"),
            (
                "  url: https://a.example/alerts.yaml\n  signature: {keyFile: missing.key}\n", "gw.yaml:5:",
                "cannot read the credentials file"
            ),
        ])
    func refusals(alerts: String, place: String, message: String) throws {
        let directory = FileManager.default.temporaryDirectory
        do {
            _ = try Self.configuration(alerts, in: directory)
            Issue.record("accepted \(alerts)")
        } catch {
            let text = error.description.replacingOccurrences(
                of: directory.appendingPathComponent("gw.yaml").path, with: "gw.yaml")
            #expect(text.hasPrefix(place), "\(text)")
            #expect(text.contains(message), "\(text)")
        }
    }
}

/// `beacond run` whose remote alert document's server refuses its token (issue 39, item 5): the
/// failed check is an event on the sinks, a metric and a line on the page's status; once the
/// token file holds the right token the set is applied, and the status says so.
@Suite("beacond run: a refused remote check is reported", .serialized)
struct RemoteCheckReportDaemonTests {
    @Test("refused: an event to the sinks, counted, on /api/status; then the right token applies the set")
    func refusedThenTaken() async throws {
        let server = try await ConfigServer()
        defer { server.stop() }
        try server.serve(RemoteAlertDefinitionsTests.versionA)
        try server.require(token: "right-token")
        let directory = server.directory
        try "wrong-token".write(to: directory.appendingPathComponent("client.token"), atomically: true, encoding: .utf8)
        let config = directory.appendingPathComponent("gateway.yaml").path
        try """
        source: {simulate: \(try TestPaths.lingeringLobby(in: directory)), speed: 1}
        http: {listen: "127.0.0.1:0"}
        sinks: [{type: jsonl, path: "-"}]
        alerts: {url: "\(server.url)", checkEvery: 1s, auth: {bearerFile: client.token}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(arguments: ["run", "--config", config])
        let announced = try #require(await daemon.errorLine(containing: "control endpoint on http://127.0.0.1:"))
        let url = try #require(announced.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))

        let failed = try #require(await daemon.outputLine(containing: #""event":"remoteAlertsFailed""#))
        #expect(failed.contains(#""outcome":"refused""#) && failed.contains("HTTP 401"), "\(failed)")
        #expect(failed.contains(#""url":"\#(server.url)""#))
        #expect(!failed.contains("wrong-token"), "the secret is never written")
        let (_, status) = try await DaemonControlTests.get(url + "/api/status")
        #expect(status.contains(#""outcome":"refused","failure":""#), "\(status)")
        let (_, metrics) = try await DaemonControlTests.get(url + "/metrics")
        #expect(metrics.contains(#"beacond_remote_alerts_checks_total{outcome="refused"}"#), "\(metrics)")

        try "right-token".write(to: directory.appendingPathComponent("client.token"), atomically: true, encoding: .utf8)
        #expect(await daemon.errorLine(containing: "remote alerts: applied a new version (1 alerts: lobby-dwell)") != nil)
        var after = ""
        let deadline = ContinuousClock.now + hangCeiling
        while ContinuousClock.now < deadline, !after.contains(#""lastSuccess""#) {
            after = try await DaemonControlTests.get(url + "/api/status").1
            if !after.contains(#""lastSuccess""#) { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(after.contains(#""lastSuccess""#) && !after.contains(#""outcome":"refused""#), "\(after)")
        kill(daemon.process.processIdentifier, SIGTERM)
        _ = await daemon.waitForExit()
    }
}
