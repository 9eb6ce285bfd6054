import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `beacond run` with an `mqtt` sink, end to end: the lobby scenario's events reach a real broker.
@Suite("beacond run with an MQTT sink", .serialized)
struct DaemonMQTTTests {
    static var beacond: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("beacond")
    }

    static var lobby: String {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // DaemonMQTTTests.swift, BeaconMQTTTests, Tests
        return parts.joined(separator: "/") + "/Simulator/Scenarios/lobby.yaml"
    }

    @Test("the created and delivered events of the lobby visitor arrive on beacond/lobby/alerts")
    func endToEnd() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let subscriber = Process()
        subscriber.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        subscriber.arguments = ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "beacond/lobby/alerts", "-q", "1",
                                "-i", "daemon-sub", "-C", "2"]
        let received = Pipe()
        subscriber.standardOutput = received
        try subscriber.run()
        defer { if subscriber.isRunning { kill(subscriber.processIdentifier, SIGKILL) } }
        broker.waitForLog("daemon-sub 1 beacond/lobby/alerts")

        let configuration = broker.directory.appendingPathComponent("gateway.yaml")
        try Data("""
            source: simulate:\(Self.lobby)
            sinks:
              - {type: mqtt, host: 127.0.0.1, port: \(broker.port), gateway: lobby, timeout: 5s}
            alerts:
              - id: lobby-dwell
                match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5}
                strategy: time
                parameters: {dwell: 60s, gap: 10s, maxTimeBeforeReset: 60s}
                content: {title: Welcome, message: Hello}

            """.utf8).write(to: configuration)
        let daemon = Process()
        daemon.executableURL = Self.beacond
        daemon.arguments = ["run", "--config", configuration.path]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)
        let lines = String(decoding: received.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        subscriber.waitUntilExit()
        // The lobby visitor (minor 1) dwells 60 s from 09:00:01: created and delivered at 09:01:01 (Simulator/Scenarios/lobby.yaml).
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(#"{"event":"created","alert":"lobby-dwell""#) == true)
        #expect(lines.last?.hasPrefix(#"{"event":"delivered","alert":"lobby-dwell""#) == true)
        #expect(lines.allSatisfy { $0.contains(#""scheduledFor":"2025-01-01T09:01:01.000Z""#) })
    }
}
