import BeaconCore
import BeaconMQTT
import BeaconSinks
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The MQTT sink against a real mosquitto that requires TLS and a password.
@Suite("MQTTSink with TLS and a password", .serialized)
struct MQTTSinkSecurityTests {
    static let event = OutboundEvent(key: "door|beacon|delivered|1", body: #"{"event":"delivered","n":1}"#)

    /// A broker with a TLS listener signed by a test CA, no anonymous clients, and one user.
    static func secureBroker() async throws -> (MosquittoBroker, TestCertificates) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-mqtt-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let passwords = directory.appendingPathComponent("passwords")
        // openssl and mosquitto_passwd, waited for on a thread of their own (not the cooperative pool).
        let certificates = try await onOwnThread {
            let certificates = try TestCertificates(in: directory)
            try TestCertificates.run("/usr/bin/mosquitto_passwd", ["-b", "-c", passwords.path, "beacond", "s3cret"])
            return certificates
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: passwords.path)
        let broker = try await MosquittoBroker(
            configuration: """
                cafile \(certificates.caFile.path)
                certfile \(certificates.serverCertificate.path)
                keyfile \(certificates.serverKey.path)
                allow_anonymous false
                password_file \(passwords.path)

                """, directory: directory, removesDirectory: true)
        return (broker, certificates)
    }

    @Test("with the CA, username and password, events are published over TLS and acknowledged")
    func tlsWithPassword() async throws {
        let (broker, certificates) = try await Self.secureBroker()
        defer { broker.stop() }
        let topic = MQTTSink.defaultTopic(gateway: "secure")
        let subscriber = try await MosquittoSubscriber(
            broker, topic: topic, id: "tls-sub", count: 1,
            arguments: ["--cafile", certificates.caFile.path, "-u", "beacond", "-P", "s3cret"])

        let options = MQTTConnectionOptions(
            username: "beacond", password: "s3cret",
            tls: .init(caFile: certificates.caFile.path))
        // The sink goes before the broker: libmosquitto's thread can take its keepalive (30 s)
        // to notice a broker killed under a TLS connection.
        do {
            let sink = try MQTTSink(host: "127.0.0.1", port: broker.port, topic: topic, options: options, clientID: "beacond-tls")
            try await sink.deliver(Self.event)
        }
        #expect(await subscriber.readToEnd() == Self.event.body + "\n")
        await broker.logged("Sending PUBACK to beacond-tls")
    }

    @Test("a wrong password fails the delivery at once, saying the broker refused and what to check")
    func wrongPassword() async throws {
        let (broker, certificates) = try await Self.secureBroker()
        defer { broker.stop() }
        let options = MQTTConnectionOptions(username: "beacond", password: "wrong", tls: .init(caFile: certificates.caFile.path))
        // The clock never moves: only the broker's refusal can end the wait. The sink lives in
        // this block only, so it goes while the broker still runs.
        do {
            let sink = try MQTTSink(
                host: "127.0.0.1", port: broker.port, topic: "beacond/secure/alerts", options: options,
                timeout: .seconds(3600), clock: ManualClock())
            try await sink.deliver(Self.event)
            Issue.record("a refused client delivered")
        } catch let error as MQTTSinkError {
            guard case .refused(let server, let reason) = error else {
                Issue.record("expected a refusal, got \(error)")
                return
            }
            #expect(server == "127.0.0.1:\(broker.port)")
            #expect(reason.lowercased().contains("not authori"), "\(reason)")
            #expect(error.description.contains("check the username, password and TLS settings"))
        }
    }

    @Test("TLS files that do not exist are refused when the sink is made, naming them")
    func missingCA() throws {
        let options = MQTTConnectionOptions(tls: .init(caFile: "/nonexistent/ca.pem"))
        #expect {
            _ = try MQTTSink(host: "127.0.0.1", port: 8883, topic: "t", options: options)
        } throws: { error in
            guard let error = error as? MQTTSinkError, case .library(let operation, let message) = error else { return false }
            return operation == "tls_set" && message.contains("/nonexistent/ca.pem")
                && message.contains("check that the files exist")
        }
    }
}
