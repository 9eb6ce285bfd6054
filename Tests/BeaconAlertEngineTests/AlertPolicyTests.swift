import BeaconAlertEngine
import BeaconCore
import Testing

/// Building a policy from the plain values of a configuration file.
@Suite("Alert policy from plain values")
struct AlertPolicyTests {
    typealias F = EngineFixture

    static func policy(
        delay: String? = nil, notBefore: String? = nil, firing: String? = nil, repeat interval: String? = nil,
        cooldown: String? = nil, maxLateness: String? = nil
    ) throws -> AlertPolicy {
        try AlertPolicy(
            delay: delay, notBefore: notBefore, firing: firing, repeat: interval, cooldown: cooldown,
            window: nil, cancelOn: [], maxLateness: maxLateness)
    }

    @Test("every option is read from its configuration spelling")
    func plainValues() throws {
        let policy = try Self.policy(delay: "1h30m", firing: "first", repeat: "weekly", cooldown: "10m", maxLateness: "2h")
        #expect(policy.schedule == .after(.seconds(5400)))
        #expect(policy.firing == .first)
        #expect(policy.repeatInterval == .weekly)
        #expect(policy.cooldown == .seconds(600))
        #expect(policy.maxLateness == .seconds(7200))
        #expect(try Self.policy(notBefore: "2025-06-01T08:00:00+02:00").schedule == .notBefore(F.at("2025-06-01T06:00:00Z")))
    }

    @Test("the defaults: immediately, every activation, no repeat, no cooldown, no window, no callbacks")
    func defaults() throws {
        let policy = try Self.policy()
        #expect(policy == AlertPolicy.default)
        #expect(policy.schedule == .immediately)
        #expect(policy.firing == .everyActivation)
        #expect(policy.repeatInterval == .off)
        #expect(policy.cooldown == nil && policy.window == nil && policy.cancelOn.isEmpty)
        #expect(policy.callbacks == .none)
    }

    @Test("the firing modes' earlier spellings still read: latest is every-activation, latest-once is once-per-beacon")
    func formerFiringSpellings() throws {
        #expect(try Self.policy(firing: "latest").firing == .everyActivation)
        #expect(try Self.policy(firing: "latest-once").firing == .oncePerBeacon)
        #expect(try Self.policy(firing: "every-activation").firing == .everyActivation)
        #expect(try Self.policy(firing: "once-per-beacon").firing == .oncePerBeacon)
    }

    @Test(
        "values that cannot work are refused with what to write instead",
        arguments: [
            (
                String?("sometimes"), String?.none, String?.none, String?.none,
                AlertPolicyError.unknownValue(
                    option: "firing", value: "sometimes", accepted: ["every-activation", "once-per-beacon", "first"])
            ),
            (
                nil, "yearly", nil, nil,
                .unknownValue(option: "repeat", value: "yearly", accepted: ["off", "minutely", "hourly", "daily", "weekly"])
            ),
            (nil, nil, "10", nil, .unknownValue(option: "delay", value: "10", accepted: ["a duration such as 30s, 10m, 2h, 1d"])),
            (
                nil, nil, nil, "tomorrow",
                .unknownValue(
                    option: "notBefore", value: "tomorrow",
                    accepted: ["an RFC 3339 time in the years 1900–2200, such as 2025-06-01T08:00:00+02:00"])
            ),
        ])
    func refused(_ firing: String?, _ interval: String?, _ delay: String?, _ notBefore: String?, _ error: AlertPolicyError) {
        #expect(throws: error) {
            try Self.policy(delay: delay, notBefore: notBefore, firing: firing, repeat: interval)
        }
    }

    @Test(
        "durations must be positive",
        arguments: [
            (Duration.seconds(-1), Duration?.none, AlertPolicyError.invalidDuration(option: "delay", value: .seconds(-1))),
            (.zero, .some(.zero), .invalidDuration(option: "cooldown", value: .zero)),
        ])
    func positiveDurations(_ delay: Duration, _ cooldown: Duration?, _ error: AlertPolicyError) {
        #expect(throws: error) { try AlertPolicy(delay: delay, cooldown: cooldown) }
    }

    @Test("maxPending must be at least 1")
    func maxPending() {
        #expect(throws: AlertPolicyError.invalidMaxPending(0)) { try AlertEngineConfiguration(rules: [], maxPending: 0) }
    }

    @Test("error descriptions say what to change")
    func descriptions() {
        #expect(
            AlertPolicyError.delayAndNotBefore.description
                == "give either 'delay' (an offset from the firing) or 'notBefore' (an absolute time), not both")
        #expect(
            AlertPolicyError.missingCallbacks([.error]).description
                == "no callback for error events; add 'callback' as a fallback for every kind")
    }
}
