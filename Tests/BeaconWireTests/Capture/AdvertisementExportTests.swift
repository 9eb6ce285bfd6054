import BeaconCore
import Foundation
import Testing

@testable import BeaconWire

@Suite("AdvertisementExport: the logic of `beacond parse`")
struct AdvertisementExportTests {
    struct Run {
        var status: AdvertisementExportStatus
        var output: String
        var diagnostics: [String]
    }

    static func run(_ paths: [String], _ options: AdvertisementExport.Options) -> Run {
        var output: [UInt8] = []
        var diagnostics: [String] = []
        let status = AdvertisementExport(options: options).run(
            paths: paths, output: { output += $0 },
            diagnostics: { diagnostics.append($0) })
        return Run(status: status, output: String(decoding: output, as: UTF8.self), diagnostics: diagnostics)
    }

    @Test("a summary line per file and a total")
    func summaries() {
        let run = Self.run(
            [
                CaptureFixtures.path("csacca_horizon74_btsnoop_hci.btsnoop"),
                CaptureFixtures.path("mitll_anechoic_nrf52_0deg.pcapng"),
            ], .init(format: .csv))
        #expect(run.status == .success)
        #expect(run.diagnostics.count == 3)
        #expect(run.diagnostics[0].hasSuffix("btsnoop (datalink 1002), records 2572, advertising reports 412, errors 0"))
        #expect(run.diagnostics[1].hasSuffix("pcapng, records 832, advertising reports 832, errors 0"))
        #expect(run.diagnostics[2] == "total: records 3404, advertising reports 1244, errors 0")
        #expect(run.output.split(separator: "\n").count == 1 + 412 + 832)
    }

    @Test("--only ibeacon keeps the oracle's iBeacon rows (11 SCAN_RSP iBeacons in csacca)")
    func onlyIBeacon() throws {
        let run = Self.run([CaptureFixtures.path("csacca_horizon74_btsnoop_hci.btsnoop")], .init(format: .csv, only: .iBeacon))
        let rows = run.output.split(separator: "\n").dropFirst()
        #expect(rows.count == 11)
        #expect(rows.allSatisfy { $0.split(separator: ",")[3] == "0x04" })
    }

    @Test("an unreadable file: one line, status 1, other files still decoded")
    func unreadable() {
        let run = Self.run(
            ["/nonexistent/x.btsnoop", CaptureFixtures.path("csacca_horizon74_btsnoop_hci.btsnoop")],
            .init(format: .jsonLines))
        #expect(run.status == .unreadableFile)
        #expect(run.diagnostics[0].hasPrefix("/nonexistent/x.btsnoop: cannot read the capture file"))
        #expect(!run.diagnostics[0].contains("\n"))
        #expect(run.output.split(separator: "\n").count == 412)
    }

    @Test("bad records are counted and skipped; --strict stops at the first with status 2")
    func strict() throws {
        var bytes = try CaptureFixtures.bytes("csacca_horizon74_btsnoop_hci.btsnoop")
        let offsets = FixtureBytes.btsnoopRecordOffsets(bytes)
        FixtureBytes.put(bigEndian: 70_000, at: offsets[1000] + 4, in: &bytes) // lying included length
        let path = CaptureFixtures.temporaryPath("bad.btsnoop")
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let lenient = Self.run([path], .init(format: .csv))
        #expect(lenient.status == .success)
        #expect(lenient.diagnostics[0].hasSuffix("errors 1 (capture.badLength: 1)"))

        let strict = Self.run([path], .init(format: .csv, strict: true))
        #expect(strict.status == .badRecord)
        #expect(strict.diagnostics.count == 1)
        #expect(strict.diagnostics[0].contains("record 1001 at offset \(offsets[1000])"))
    }

    @Test("no input can crash it: random corruptions of every capture end in a status")
    func corruptionsNeverCrash() throws {
        var generator = SplitMix64(seed: 42)
        for name in CaptureFixtures.oracleCaptures + ["hci_2k_seed1.monitor.btsnoop"] {
            let original = try CaptureFixtures.bytes(name)
            for round in 0..<8 {
                var bytes = original
                for _ in 0..<(1 + round * 4) {
                    let at = Int(generator.next() % UInt64(bytes.count))
                    bytes[at] = UInt8(truncatingIfNeeded: generator.next())
                }
                if round % 3 == 2 { bytes.removeLast(Int(generator.next() % UInt64(bytes.count / 2))) }
                let path = CaptureFixtures.temporaryPath("fuzz-\(round)-\(name)")
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                let run = Self.run([path], .init(format: .jsonLines))
                #expect([.success, .unreadableFile].contains(run.status))
                #expect(run.diagnostics.count == 1)
            }
        }
    }
}
