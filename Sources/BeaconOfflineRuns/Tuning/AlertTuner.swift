import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconSimulator
import BeaconStrategyKit

/// Tunes one alert against the truth (`beacond tune`): runs every candidate on every input, as
/// shadows of one pipeline per input — ranging once, strategies and engine once per candidate,
/// spread over threads — and scores each candidate's first deliveries against the true visits.
///
/// A share of the visits is held back: each (run, beacon) pair is held back or not by a hash of
/// the split seed, the run's position and the beacon, so the split is the same for every
/// candidate and every run of the tune. Candidates are ranked on the rest; the held-back score is
/// reported beside, so a winner fitted to noise shows. Everything depends only on the inputs,
/// the candidates and the seed — not on the thread count or the machine.
public struct AlertTuner {
    /// The alert as configured (its match, strategy, other parameters and rule).
    public var base: PipelineAlert
    /// The candidates, the configured values first.
    public var candidates: [TuningCandidate]
    /// Where the alert's strategy comes from.
    public var registry: StrategyRegistry
    /// What the ranking looks for.
    public var objective: TuningObjective
    /// The share of (run, beacon) pairs held back (0 ≤ share < 1).
    public var heldBackShare: Double
    /// The seed of the held-back split.
    public var splitSeed: UInt64
    /// How long after a visit ends an alert still counts for it (as `beacond score --tolerance`).
    public var tolerance: Duration
    /// Threads the candidates run on per cycle.
    public var threads: Int

    /// A tuner.
    public init(
        base: PipelineAlert, candidates: [TuningCandidate], registry: StrategyRegistry,
        objective: TuningObjective = TuningObjective(), heldBackShare: Double = 0.25, splitSeed: UInt64 = 1,
        tolerance: Duration = .seconds(30), threads: Int = 1
    ) {
        self.base = base
        self.candidates = candidates
        self.registry = registry
        self.objective = objective
        self.heldBackShare = heldBackShare
        self.splitSeed = splitSeed
        self.tolerance = tolerance
        self.threads = threads
    }

    /// Runs every candidate on `runs`, in order, and ranks them.
    /// - Parameters:
    ///   - runs: the inputs, each with its true visits.
    ///   - progress: called after each run with the number of runs done.
    /// - Throws: a ``TuningError`` for a candidate the strategy refuses or a run that fails.
    public func tune(runs: [TuningRun], progress: (Int) -> Void = { _ in }) async throws -> TuningReport {
        // Without a true visit of a beacon the alert matches, every candidate would score a
        // perfect recall: refuse rather than rank on nothing.
        guard runs.contains(where: { $0.visits.contains { base.match.matches($0.beacon) } }) else {
            throw TuningError.noVisits(alertID: base.id)
        }
        var tuning = Array(repeating: Tally(), count: candidates.count)
        var heldBack = Array(repeating: Tally(), count: candidates.count)
        for (runIndex, run) in runs.enumerated() {
            let deliveries = DeliveryLog(candidates: candidates.count)
            do {
                try await run.body { pipeline in
                    pipeline.shadowThreads = threads
                    for (index, candidate) in candidates.enumerated() {
                        let shadow: AlertShadow
                        do {
                            shadow = try pipeline.attachShadow(alerts: [candidate.alert(from: base)], registry: registry)
                        } catch {
                            throw TuningError.candidateRefused(candidate: candidate.label, reason: "\(error)")
                        }
                        shadow.onEvent = { deliveries.take($0, candidate: index) }
                        deliveries.shadows.append(shadow)
                    }
                }
            } catch let error as TuningError {
                throw error
            } catch {
                throw TuningError.runFailed(run: run.name, reason: "\(error)")
            }
            // A candidate whose engine stopped part way would be scored on part of the run.
            for (index, shadow) in deliveries.shadows.enumerated() {
                if let failure = shadow.failure {
                    throw TuningError.runFailed(run: run.name, reason: "candidate \(candidates[index].label) stopped: \(failure)")
                }
            }
            let visits = run.visits.filter { base.match.matches($0.beacon) }
            let held = { (beacon: BeaconID) in isHeldBack(run: runIndex, beacon: beacon) }
            let visitsKept = visits.filter { !held($0.beacon) }
            let visitsHeld = visits.filter { held($0.beacon) }
            for index in candidates.indices {
                let alerts = deliveries.alerts[index]
                tuning[index].add(score(alerts.filter { !held($0.beacon) }, visitsKept))
                heldBack[index].add(score(alerts.filter { held($0.beacon) }, visitsHeld))
            }
            progress(runIndex + 1)
        }
        let outcomes = candidates.indices.map { index in
            let (kept, held) = (tuning[index].score(base.id), heldBack[index].score(base.id))
            return TuningOutcome(
                candidate: candidates[index], tuning: kept, heldBack: held, meetsObjective: objective.isMet(by: kept),
                heldBackMeetsObjective: objective.isMet(by: held))
        }
        return TuningReport(
            alertID: base.id, objective: objective, runs: runs.map(\.name), heldBackShare: heldBackShare,
            outcomes: outcomes.sorted { objective.ranks($0, before: $1) })
    }

    /// Whether the pair (run, beacon) is held back: FNV-1a of the seed, the run's position and
    /// the beacon, mixed, against the share (stable across processes, unlike `Hasher`).
    public func isHeldBack(run: Int, beacon: BeaconID) -> Bool {
        guard heldBackShare > 0 else { return false }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(splitSeed)/\(run)/\(beacon)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        // FNV leaves the last bytes (a beacon's minor) in the low bits: mix before the high
        // bits are read (MurmurHash3's finalizer).
        hash = (hash ^ (hash >> 33)) &* 0xff51_afd7_ed55_8ccd
        hash = (hash ^ (hash >> 33)) &* 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return Double(hash >> 11) / Double(1 << 53) < heldBackShare
    }

    private func score(_ alerts: [Scoring.Alert], _ visits: [Scoring.Visit]) -> Scoring.Score {
        let uuids = Set(visits.map(\.beacon.uuid)).union(alerts.map(\.beacon.uuid))
        return Scoring.score(alerts: alerts, visits: visits, tolerance: tolerance, uuids: uuids).first
            ?? Scoring.Score(alertID: base.id, alerts: 0, matchedAlerts: 0, visits: visits.count, latencies: [])
    }
}

/// The first deliveries of each candidate during one run (filled on the pipeline's task), and
/// the candidates' shadows.
private final class DeliveryLog {
    var alerts: [[Scoring.Alert]]
    var shadows: [AlertShadow] = []

    init(candidates: Int) { alerts = Array(repeating: [], count: candidates) }

    func take(_ routed: RoutedEvent, candidate: Int) {
        let event = routed.event
        guard event.kind == .delivered, event.attempt == 0 else { return }
        alerts[candidate].append(Scoring.Alert(id: event.alertID, beacon: event.beacon, time: event.time))
    }
}

/// Scores summed over runs.
private struct Tally {
    var alerts = 0
    var matched = 0
    var visits = 0
    var latencies: [Duration] = []

    mutating func add(_ score: Scoring.Score) {
        alerts += score.alerts
        matched += score.matchedAlerts
        visits += score.visits
        latencies += score.latencies
    }

    func score(_ alertID: String) -> Scoring.Score {
        Scoring.Score(alertID: alertID, alerts: alerts, matchedAlerts: matched, visits: visits, latencies: latencies.sorted())
    }
}
