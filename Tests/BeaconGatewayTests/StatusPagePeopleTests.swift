import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// People on a hub's status page, in a real headless browser: `beacond simulate flat.yaml --serve`
/// places Ada from her phone and watch, and the page lists her with her room and names her in
/// that room's label on the map.
@Suite("The status page: people", .serialized)
struct StatusPagePeopleTests {
    @Test("Ada is listed with her room, and named in that room's label on the map")
    func peopleOnThePage() async throws {
        try await ChildProcessSlots.siteRuns.withSlot { try await checkPeople() }
    }

    private func checkPeople() async throws {
        let daemon = try RunningDaemon(arguments: [
            "simulate", TestPaths.scenario("flat"), "--serve", "127.0.0.1:0", "--speed", "20", "--linger", "300s",
        ])
        let announced = try #require(await daemon.errorLine(containing: "the hub's status page is on http://127.0.0.1:"))
        let url = try #require(announced.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))
        let seen = try await onOwnThread { () throws -> [String]? in
            let browser = try HeadlessChromium(width: 1400, height: 1100)
            let page = try browser.open(url)
            // Placed once her devices corroborated (within the first rotation: 5 min of scenario time).
            guard
                try browser.waitUntil(
                    "!!document.querySelector('#site-people li[data-person=\"Ada\"]:not([data-room=\"\"])')", in: page)
            else { return nil }
            return try browser.evaluate(
                """
                (() => {
                  const li = document.querySelector('#site-people li[data-person="Ada"]');
                  const room = li.dataset.room;
                  const label = document.querySelector('#site-map .room-label[data-room="' + room + '"]');
                  return [room, li.textContent, label ? label.textContent : ''];
                })()
                """, in: page) as? [String]
        }
        let shown = try #require(seen, "Ada was never placed on the page")
        let (room, item, label) = (shown[0], shown[1], shown[2])
        #expect(["hall", "kitchen", "bedroom"].contains(room), "\(room)")
        #expect(item == "Ada \(room)", "\(item)")
        #expect(label.hasPrefix("\(room) · ") && label.hasSuffix(" · Ada"), "the room's label names her: \(label)")
        kill(daemon.process.processIdentifier, SIGTERM)
        _ = await daemon.waitForExit()
    }
}
