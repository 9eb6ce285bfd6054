import BeaconCore
import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyTestSupport
import Testing

/// Quiet periods (issue 30) skip the hooks of beacons that only let time pass. They must not
/// change anything a user of the strategy can see: for random scripts of many beacons — seen
/// near or far, in their grace, absent, cycles now and then late — the dwell and exit strategies
/// with quiet periods give the same triggers, parameters, statuses and saved state at every cycle
/// as the same strategies stepping every beacon every cycle (`allowsQuietSteps = false`).
@Suite("Quiet periods change nothing but the cost")
struct QuietPeriodEquivalenceTests {
    /// The strategies under test, each made twice (quiet allowed, and not).
    static let makers: [(name: String, make: @Sendable () -> any BeaconAlertStrategy)] = [
        (
            "time, dwell 8 s, gap 2 s, reset 5 s",
            {
                TimeAlertStrategy(.init(dwell: .seconds(8), gap: .seconds(2), base: .init(maxTimeBeforeReset: .seconds(5))))
            }
        ),
        (
            "time, dwell 5 s, gap 1 s, near, reset when invalid",
            {
                TimeAlertStrategy(
                    .init(
                        dwell: .seconds(5), gap: .seconds(1), minimumProximity: .near,
                        base: .init(maxTimeBeforeReset: .seconds(30), resetWhenConditionInvalid: true)))
            }
        ),
        (
            "time, dwell 20 s, gap 3 s, retention 60 s",
            {
                TimeAlertStrategy(.init(dwell: .seconds(20), gap: .seconds(3), base: .init(retention: .seconds(60))))
            }
        ),
        (
            "time, dwell 1 ms (fires at once), gap 1 s",
            {
                TimeAlertStrategy(.init(dwell: .milliseconds(1), gap: .seconds(1), base: .init(maxTimeBeforeReset: .seconds(2))))
            }
        ),
        (
            "the article's dwell (second way), delay 6 s, gap 2 s",
            {
                TimeAlertStrategySecondWay(
                    maxTimeBeforeReset: .seconds(4), delayBeforeCreatingAlert: .seconds(6), gap: .seconds(2))
            }
        ),
        ("exit, away 4 s", { ExitAlertStrategy(.init(away: .seconds(4))) }),
        (
            "exit, away 1 s, no reset when invalid, reset 6 s",
            {
                ExitAlertStrategy(.init(away: .seconds(1), base: .init(maxTimeBeforeReset: .seconds(6))))
            }
        ),
        ("exit, away 30 s", { ExitAlertStrategy(.init(away: .seconds(30))) }),
    ]

    /// What the strategy shows after one cycle, when `reads` asks for it.
    struct Observation: Equatable {
        var triggers: [AlertTrigger]
        var parameters: [ParameterSnapshot?] = []
        var statuses: [StrategyBeaconStatus] = []
        var saved: [StrategyStateEntry] = []
    }

    /// One run of 400 cycles over 30 beacons; reads parameters, statuses and saved state every
    /// `readEvery` cycles (0: only at the end), and marks a fired beacon's action done by hand now
    /// and then, as an engine may.
    static func run(_ strategy: any BeaconAlertStrategy, seed: UInt64, readEvery: Int) -> [Observation] {
        var generator = SplitMix64(seed: seed)
        // Each beacon follows its own script: runs of one kind of sight, of random length.
        var sight = [Sight](repeating: .absent, count: 30)
        var runLeft = [Int](repeating: 0, count: 30)
        var observations: [Observation] = []
        var second = 0
        for cycle in 0..<400 {
            second += Int.random(in: 0..<10, using: &generator) == 0 ? 3 : 1 // a late cycle now and then
            let now = Timestamp.at(second)
            var beacons: [RangedBeacon] = []
            for n in 0..<30 {
                if runLeft[n] == 0 {
                    sight[n] = [Sight.near, .far, .immediate, .grace, .absent, .near, .absent].randomElement(using: &generator)!
                    runLeft[n] = Int.random(in: 1...(n % 3 == 0 ? 3 : 25), using: &generator)
                }
                runLeft[n] -= 1
                if let beacon = RangedBeacon.scripted(sight[n], id: .numbered(n), now: now) { beacons.append(beacon) }
            }
            var observation = Observation(triggers: [])
            strategy.evaluate(
                RangingUpdate(cycleStart: now - .seconds(1), time: now, beacons: beacons), into: &observation.triggers)
            if cycle % 17 == 5, let trigger = observation.triggers.first {
                strategy.markActionDone(for: trigger.beacon, now: now)
            }
            if readEvery > 0 && cycle % readEvery == 0 || cycle == 399 {
                observation.parameters = (0..<30).map { snapshot(strategy, .numbered($0)) }
                strategy.collectStatuses(now: now, into: &observation.statuses)
                strategy.collectStateChanges(into: &observation.saved)
            }
            observations.append(observation)
        }
        return observations
    }

    /// A beacon's parameter, comparable whatever the strategy's value type.
    struct ParameterSnapshot: Hashable {
        var value: AnyHashable
        var actionStatus: ActionStatus
        var conditionValid: Bool
        var lastSeen: Timestamp

        init?<Value: Hashable>(_ parameter: BeaconAlertParameter<Value>?) {
            guard let parameter else { return nil }
            value = AnyHashable(parameter.value)
            actionStatus = parameter.actionStatus
            conditionValid = parameter.conditionValid
            lastSeen = parameter.lastSeen
        }
    }

    static func snapshot(_ strategy: any BeaconAlertStrategy, _ id: BeaconID) -> ParameterSnapshot? {
        switch strategy {
        case let time as TimeAlertStrategy: ParameterSnapshot(time.parameter(for: id))
        case let exit as ExitAlertStrategy: ParameterSnapshot(exit.parameter(for: id))
        case let article as TimeAlertStrategySecondWay: ParameterSnapshot(article.parameter(for: id))
        default: nil
        }
    }

    static func quiet(_ strategy: any BeaconAlertStrategy, _ allowed: Bool) -> any BeaconAlertStrategy {
        (strategy as? TimeAlertStrategy)?.allowsQuietSteps = allowed
        (strategy as? ExitAlertStrategy)?.allowsQuietSteps = allowed
        (strategy as? TimeAlertStrategySecondWay)?.allowsQuietSteps = allowed
        return strategy
    }

    @Test("the same triggers, parameters, statuses and saved state at every cycle", arguments: makers.indices)
    func sameAsSteppingEveryCycle(_ index: Int) {
        let maker = Self.makers[index]
        for seed: UInt64 in [1, 2, 3] {
            for readEvery in [0, 1, 7] {
                let reference = Self.run(Self.quiet(maker.make(), false), seed: seed, readEvery: readEvery)
                let quiet = Self.run(Self.quiet(maker.make(), true), seed: seed, readEvery: readEvery)
                let firstDifference = reference.indices.first { reference[$0] != quiet[$0] }
                #expect(
                    firstDifference == nil,
                    "\(maker.name), seed \(seed), reading every \(readEvery): cycle \(firstDifference ?? -1)")
                #expect(reference.contains { !$0.triggers.isEmpty }, "\(maker.name): the script never fires, so it proves little")
            }
        }
    }

    @Test("beacons that stay the same are mostly not stepped: the hooks run on a fraction of the cycles")
    func quietCyclesSkipTheHooks() {
        /// Counts the calls of its hooks; otherwise the dwell strategy.
        final class CountingTime: BeaconAlertStrategyBase<TimeVisit> {
            let inner = TimeAlertStrategy(.init(dwell: .seconds(60), gap: .seconds(3)))
            var updates = 0
            override var key: String { "counting-time" }
            override func updateAlertParameter(_ visit: inout TimeVisit, beacon: RangedBeacon?, now: Timestamp) {
                updates += 1
                inner.updateAlertParameter(&visit, beacon: beacon, now: now)
            }
            override func isConditionValid(_ visit: TimeVisit, now: Timestamp) -> Bool { inner.isConditionValid(visit, now: now) }
            override func quietPeriod(after visit: TimeVisit, now: Timestamp) -> QuietPeriod? {
                inner.quietPeriod(after: visit, now: now)
            }
            override func catchUp(_ visit: inout TimeVisit, lastPresent: Timestamp?, presentAtLastCycle: Bool) {
                inner.catchUp(&visit, lastPresent: lastPresent, presentAtLastCycle: presentAtLastCycle)
            }
        }
        let strategy = CountingTime(initialValue: TimeVisit())
        var triggers: [AlertTrigger] = []
        // One beacon seen every second for 10 minutes: stepped at its first sight, at the dwell, and
        // not in between.
        for second in 0..<600 {
            let now = Timestamp.at(second)
            strategy.evaluate(
                RangingUpdate(cycleStart: now - .seconds(1), time: now, beacons: [RangedBeacon.scripted(.near, now: now)!]),
                into: &triggers)
        }
        #expect(triggers.map(\.time) == [.at(60)])
        #expect(strategy.updates == 2, "hooks ran \(strategy.updates) times in 600 cycles")
    }
}

/// The article's parameter, compared field by field (its file is quoted by the article as it is).
extension TimeAlertParameter: Hashable {
    static func == (a: Self, b: Self) -> Bool {
        a.timeToShowAlert == b.timeToShowAlert && a.lastDetectionTime == b.lastDetectionTime && a.detectedNow == b.detectedNow
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(timeToShowAlert)
        hasher.combine(lastDetectionTime)
        hasher.combine(detectedNow)
    }
}
