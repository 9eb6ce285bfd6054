import BeaconAlertEngine
import BeaconCore
import Testing

/// Delivery windows: days, times of day, IANA zones, DST days, overnight windows, errors.
///
/// Expected instants are worked out by hand from the zone rules: Europe/Paris is UTC+1 (CET)
/// in winter and UTC+2 (CEST) in summer; in 2025 the clocks go 02:00→03:00 at 01:00Z on
/// 2025-03-30 and 03:00→02:00 at 01:00Z on 2025-10-26.
@Suite("Delivery window")
struct DeliveryWindowTests {
    typealias F = EngineFixture

    static let officeHours = try! DeliveryWindow(
        days: ["mon", "tue", "wed", "thu", "fri"], from: "08:00", to: "18:00",
        timeZone: "Europe/Paris")
    static let nightSlot = try! DeliveryWindow(from: "02:30", to: "03:30", timeZone: "Europe/Paris")

    @Test(
        "open or closed at an instant",
        arguments: [
            // Office hours, winter (UTC+1): Monday 2025-01-06 08:00–18:00 local = 07:00Z–17:00Z.
            (officeHours, "2025-01-06T06:59:59Z", false),
            (officeHours, "2025-01-06T07:00:00Z", true),
            (officeHours, "2025-01-06T16:59:59Z", true),
            (officeHours, "2025-01-06T17:00:00Z", false),
            (officeHours, "2025-01-11T10:00:00Z", false), // Saturday
            // Summer (UTC+2): Monday 2025-06-02 08:00 local = 06:00Z.
            (officeHours, "2025-06-02T06:00:00Z", true),
            (officeHours, "2025-06-02T05:59:59Z", false),
            // Spring-forward day: local 02:00–03:00 does not exist; 03:00 CEST = 01:00Z opens it, 03:30 CEST = 01:30Z closes it.
            (nightSlot, "2025-03-30T00:59:59Z", false),
            (nightSlot, "2025-03-30T01:00:00Z", true),
            (nightSlot, "2025-03-30T01:29:59Z", true),
            (nightSlot, "2025-03-30T01:30:00Z", false),
            // Fall-back day: opens at the first 02:30 (CEST, 00:30Z), closes at 03:30 CET (02:30Z).
            (nightSlot, "2025-10-26T00:29:59Z", false),
            (nightSlot, "2025-10-26T00:30:00Z", true),
            (nightSlot, "2025-10-26T01:15:00Z", true), // 02:15 CET, inside the repeated hour
            (nightSlot, "2025-10-26T02:29:59Z", true),
            (nightSlot, "2025-10-26T02:30:00Z", false),
            // An ordinary winter day: 02:30–03:30 CET = 01:30Z–02:30Z.
            (nightSlot, "2025-03-29T01:29:59Z", false),
            (nightSlot, "2025-03-29T01:30:00Z", true),
        ])
    func contains(_ window: DeliveryWindow, _ time: String, _ open: Bool) {
        #expect(window.contains(F.at(time)) == open)
    }

    @Test(
        "the next opening",
        arguments: [
            (officeHours, "2025-01-06T10:00:00Z", "2025-01-06T10:00:00Z"), // open: now
            (officeHours, "2025-01-06T05:00:00Z", "2025-01-06T07:00:00Z"), // before opening
            (officeHours, "2025-01-10T18:00:00Z", "2025-01-13T07:00:00Z"), // Friday evening → Monday
            (officeHours, "2025-01-11T10:00:00Z", "2025-01-13T07:00:00Z"), // Saturday → Monday
            (officeHours, "2025-03-28T17:30:00Z", "2025-03-31T06:00:00Z"), // Friday (CET) → Monday (CEST)
            (nightSlot, "2025-03-30T00:10:00Z", "2025-03-30T01:00:00Z"), // spring-forward: opens at 03:00 CEST
            (nightSlot, "2025-03-30T01:30:00Z", "2025-03-31T00:30:00Z"), // next day 02:30 CEST
            (nightSlot, "2025-10-25T23:00:00Z", "2025-10-26T00:30:00Z"), // fall-back: first 02:30 (CEST)
            (nightSlot, "2025-10-26T02:30:00Z", "2025-10-27T01:30:00Z"), // next day 02:30 CET
        ])
    func nextOpening(_ window: DeliveryWindow, _ time: String, _ expected: String) {
        #expect(window.nextOpening(atOrAfter: F.at(time)) == F.at(expected))
    }

    @Test("an overnight window belongs to the day it opens")
    func overnight() throws {
        let fridayNight = try DeliveryWindow(days: ["fri"], from: "22:00", to: "06:00", timeZone: "UTC")
        #expect(fridayNight.contains(F.at("2025-01-10T23:00:00Z"))) // Friday 23:00
        #expect(fridayNight.contains(F.at("2025-01-11T05:59:59Z"))) // Saturday 05:59, still Friday's
        #expect(!fridayNight.contains(F.at("2025-01-11T06:00:00Z")))
        #expect(!fridayNight.contains(F.at("2025-01-11T23:00:00Z"))) // Saturday night
        #expect(fridayNight.nextOpening(atOrAfter: F.at("2025-01-11T23:00:00Z")) == F.at("2025-01-17T22:00:00Z"))
    }

    @Test("a window that only names a zone is always open")
    func wholeDay() throws {
        let always = try DeliveryWindow(timeZone: "Europe/Paris")
        for time in ["2025-03-30T00:59:59Z", "2025-03-30T01:00:00Z", "2025-10-25T22:00:00Z", "2025-10-26T01:30:00Z"] {
            #expect(always.contains(F.at(time)))
        }
    }

    @Test(
        "invalid windows are configuration errors",
        arguments: [
            (
                [String]?(nil), "25:00", "18:00", "Europe/Paris", "defer",
                AlertPolicyError.invalidTimeOfDay(option: "from", value: "25:00")
            ),
            (nil, "08:00", "24:01", "Europe/Paris", "defer", .invalidTimeOfDay(option: "to", value: "24:01")),
            (nil, "8h", "18:00", "Europe/Paris", "defer", .invalidTimeOfDay(option: "from", value: "8h")),
            (nil, "08:00", "08:00", "Europe/Paris", "defer", .emptyWindow(from: "08:00", to: "08:00")),
            ([], "08:00", "18:00", "Europe/Paris", "defer", .noWindowDays),
            (
                ["funday"], "08:00", "18:00", "Europe/Paris", "defer",
                .unknownValue(option: "days", value: "funday", accepted: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"])
            ),
            (nil, "08:00", "18:00", "Mars/Olympus_Mons", "defer", .unknownTimeZone("Mars/Olympus_Mons")),
            (
                nil, "08:00", "18:00", "UTC", "later",
                .unknownValue(option: "outsideWindow", value: "later", accepted: ["defer", "drop"])
            ),
        ])
    func invalid(_ days: [String]?, _ from: String, _ to: String, _ zone: String, _ outside: String, _ error: AlertPolicyError) {
        #expect(throws: error) {
            try DeliveryWindow(days: days, from: from, to: to, timeZone: zone, outsideWindow: outside)
        }
    }

    @Test("days and times parse in their configuration spellings")
    func parsing() throws {
        let window = try DeliveryWindow(
            days: ["Mon", "friday"], from: "8:00", to: "17:30:15", timeZone: "Europe/Paris",
            outsideWindow: "drop")
        #expect(window.days == [.monday, .friday])
        #expect(window.fromSecond == 8 * 3600)
        #expect(window.toSecond == 17 * 3600 + 30 * 60 + 15)
        #expect(window.outsideWindow == .drop)
        #expect(window.description == "mon, fri 08:00–17:30:15 Europe/Paris")
    }
}
