import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A hub's floor plan on its status page: `beacond simulate hall-aisles.yaml --serve` runs the
/// bundled aisle hall, whose blocks the hub tracks its tags within; `/api/site` lists them as
/// its schema says, with its rooms' outlines, and the page in a real headless browser shades
/// each block and draws each room as its outline.
@Suite("The floor plan on a hub's status page", .serialized)
struct StatusPageFloorPlanTests {
    @Test("the aisle hall's eight blocks and four room outlines are in /api/site as the schema says, and drawn on the map")
    func blocksOnTheMap() async throws {
        try await ChildProcessSlots.siteRuns.withSlot { try await checkBlocks() }
    }

    private func checkBlocks() async throws {
        let directory = try DaemonControlTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let daemon = try RunningDaemon(arguments: [
            "simulate", TestPaths.scenario("hall-aisles"), "--serve", "127.0.0.1:0", "--speed", "2", "--linger", "300s",
        ])
        let announced = try #require(await daemon.errorLine(containing: "the hub's status page is on http://127.0.0.1:"))
        let page = try #require(announced.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))
        let (status, site) = try await DaemonControlTests.get(String(page.dropLast()) + "/api/site")
        #expect(status == 200)
        try await StatusPageTests.validate(site, as: "site", in: directory)
        // The scenario's first block, {min: [4, 4], max: [8.5, 8]}, corner by corner.
        #expect(
            site.contains(#"{"kind":"block","points":[[4.000,4.000],[8.500,4.000],[8.500,8.000],[4.000,8.000]]}"#),
            "\(site.prefix(3000))")
        // The scenario's rooms are the hub's outlines: the south-west quarter, corner by corner.
        #expect(
            site.contains(#""outline":[[0.000,0.000],[10.000,0.000],[10.000,9.500],[0.000,9.500]]"#), "\(site.prefix(3000))")
        let drawn = try await onOwnThread { () throws -> [Int] in
            let browser = try HeadlessChromium(width: 1400, height: 1100)
            let tab = try browser.open(page)
            guard try browser.waitUntil("document.querySelectorAll('#site-map polygon[data-obstacle=block]').length > 0", in: tab)
            else { return [] }
            let counts =
                "[document.querySelectorAll('#site-map polygon[data-obstacle=block]').length, document.querySelectorAll('#site-map polygon[data-outline]').length]"
            return try browser.evaluate(counts, in: tab) as? [Int] ?? []
        }
        #expect(drawn == [8, 4], "blocks, then room outlines")
        kill(daemon.process.processIdentifier, SIGTERM)
        _ = await daemon.waitForExit()
    }
}
