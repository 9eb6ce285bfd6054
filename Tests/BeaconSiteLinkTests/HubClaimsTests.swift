import BeaconCore
import Testing

@testable import BeaconSiteLink

/// Which events a hub of a share may deliver, stepped event by event as the broker's callbacks
/// would: only those whose claim the broker acknowledged or holds as the hub's own.
@Suite("HubClaims: a hub delivers only what the broker holds as its claim")
struct HubClaimsTests {
    static func key(_ seconds: Int64, alert: String = "shop-dwell") -> String {
        CommittedEventTests.key(alert, seconds: seconds)
    }

    static func claims() -> HubClaims { HubClaims(me: "hub-a", matchWindow: .seconds(30)) }

    /// Claims `keys` and publishes them on `connection` as message `messageID`; returns the list.
    static func publish(_ keys: [String], _ claims: inout HubClaims, connection: Int = 1, messageID: Int32) -> [String]? {
        claims.claim(keys)
        let list = claims.nextPublication(connection: connection)
        _ = claims.published(messageID: messageID, connection: connection)
        return list
    }

    @Test("a claim is deliverable once its publication is acknowledged, not before")
    func acknowledged() {
        var claims = Self.claims()
        let list = Self.publish([Self.key(100)], &claims, messageID: 7)
        #expect(list == [Self.key(100)])
        #expect(!claims.isMine(Self.key(100)))
        let otherMessage = claims.acknowledged(messageID: 8, connection: 1)
        #expect(!otherMessage && !claims.isMine(Self.key(100)))
        let itsOwn = claims.acknowledged(messageID: 7, connection: 1)
        #expect(itsOwn && claims.isMine(Self.key(100)))
    }

    @Test("an acknowledgement that comes before its message id is noted still counts")
    func earlyAcknowledgement() {
        var claims = Self.claims()
        claims.claim([Self.key(100)])
        _ = claims.nextPublication(connection: 1)
        let early = claims.acknowledged(messageID: 3, connection: 1)
        #expect(!early)
        let noted = claims.published(messageID: 3, connection: 1)
        #expect(noted && claims.isMine(Self.key(100)))
    }

    @Test("one publication at a time: what is claimed meanwhile goes out with the next, the list whole")
    func coalesced() {
        var claims = Self.claims()
        _ = Self.publish([Self.key(100)], &claims, messageID: 1)
        claims.claim([Self.key(101)])
        claims.claim([Self.key(102), Self.key(101)])
        let whileInFlight = claims.nextPublication(connection: 1)
        #expect(whileInFlight == nil)
        #expect(claims.unacknowledged == 3)
        _ = claims.acknowledged(messageID: 1, connection: 1)
        let next = claims.nextPublication(connection: 1)
        #expect(next == [Self.key(100), Self.key(101), Self.key(102)])
        _ = claims.published(messageID: 2, connection: 1)
        #expect(!claims.isMine(Self.key(102)))
        _ = claims.acknowledged(messageID: 2, connection: 1)
        #expect(claims.isMine(Self.key(101)) && claims.isMine(Self.key(102)))
    }

    @Test("a connection lost with a claim in flight: not this hub's, its late acknowledgement ignored, never claimed again")
    func lostInFlight() {
        var claims = Self.claims()
        _ = Self.publish([Self.key(100)], &claims, messageID: 5)
        claims.connectionLost()
        let late = claims.acknowledged(messageID: 5, connection: 1)
        #expect(!late && !claims.isMine(Self.key(100)))
        let onTheNextConnection = claims.nextPublication(connection: 2)
        #expect(onTheNextConnection == nil)
        #expect(claims.unacknowledged == 0)
    }

    @Test("a claim the broker did hold (the hub's own retained list says so) is the hub's after all")
    func ownRetainedList() {
        var claims = Self.claims()
        _ = Self.publish([Self.key(100)], &claims, messageID: 5)
        claims.connectionLost()
        let grew = claims.heard(hub: "hub-a", keys: [Self.key(100)])
        #expect(grew && claims.isMine(Self.key(100)))
        let again = claims.heard(hub: "hub-a", keys: [Self.key(100)])
        #expect(!again, "heard again: nothing new")
    }

    @Test("a publication the client could not send puts its claims back")
    func notSent() {
        var claims = Self.claims()
        claims.claim([Self.key(100)])
        _ = claims.nextPublication(connection: 1)
        let sent = claims.published(messageID: nil, connection: 1)
        let retried = claims.nextPublication(connection: 1)
        #expect(!sent && retried == [Self.key(100)])
    }

    @Test("stepping down drops the claims not yet published; one in flight still counts when acknowledged")
    func steppedDown() {
        var claims = Self.claims()
        _ = Self.publish([Self.key(100)], &claims, messageID: 1)
        claims.claim([Self.key(101)])
        claims.steppedDown()
        let acknowledged = claims.acknowledged(messageID: 1, connection: 1)
        #expect(acknowledged && claims.isMine(Self.key(100)))
        #expect(!claims.isMine(Self.key(101)))
        let next = claims.nextPublication(connection: 1)
        #expect(next == nil)
    }

    @Test("another hub's claims: the same key, or the same alert within the window; a new list replaces the old")
    func others() {
        var claims = Self.claims()
        let grew = claims.heard(hub: "hub-b", keys: [Self.key(100), "not a key"])
        #expect(!grew)
        #expect(claims.claimedByOthers(Self.key(100)) && claims.claimedByOthers(Self.key(125)))
        #expect(!claims.claimedByOthers(Self.key(131)))
        #expect(!claims.claimedByOthers(Self.key(100, alert: "hall-dwell")))
        #expect(claims.claimedByOthers("not a key"))
        #expect(!claims.isMine(Self.key(100)))
        _ = claims.heard(hub: "hub-b", keys: [Self.key(200)])
        #expect(!claims.claimedByOthers(Self.key(100)) && claims.claimedByOthers(Self.key(200)))
    }

    @Test("a new connection puts the whole list back (a restarted broker lost it); nothing when there is none")
    func again() {
        var claims = Self.claims()
        let empty = claims.nextPublication(connection: 1, again: true)
        #expect(empty == nil)
        _ = Self.publish([Self.key(100)], &claims, messageID: 1)
        _ = claims.acknowledged(messageID: 1, connection: 1)
        claims.connectionLost()
        let back = claims.nextPublication(connection: 2, again: true)
        #expect(back == [Self.key(100)])
    }

    @Test("a whole list asked for while one is in flight goes out after it; a key claimed twice is listed once")
    func againWhileInFlight() {
        var claims = Self.claims()
        _ = Self.publish([Self.key(100), Self.key(100)], &claims, messageID: 1)
        #expect(claims.unacknowledged == 1)
        let whileInFlight = claims.nextPublication(connection: 1, again: true)
        #expect(whileInFlight == nil)
        _ = claims.acknowledged(messageID: 1, connection: 1)
        let after = claims.nextPublication(connection: 1)
        #expect(after == [Self.key(100)], "the whole list, asked for while the first was in flight")
    }

    @Test("the list keeps ten minutes before its newest claim; older keys are forgotten once nothing waits for them")
    func window() {
        var claims = Self.claims()
        _ = Self.publish([Self.key(0), Self.key(500)], &claims, messageID: 1)
        _ = claims.acknowledged(messageID: 1, connection: 1)
        claims.claim([Self.key(700)])
        let list = claims.nextPublication(connection: 1)
        #expect(list == [Self.key(500), Self.key(700)])
        #expect(claims.isMine(Self.key(0)), "still deliverable until forgotten")
        claims.forget(keeping: [])
        #expect(!claims.isMine(Self.key(0)) && claims.isMine(Self.key(500)))
    }
}
