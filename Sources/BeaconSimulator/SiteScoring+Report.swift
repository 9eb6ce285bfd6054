import Foundation

extension SiteScoring {
    /// The scores.
    public struct Report: Hashable, Sendable {
        /// Presence lines inside a true stay.
        public var roomSamples = 0
        /// Of those, with the right room.
        public var roomRight = 0
        /// Room changes between consecutive lines of one stay, other than into the stay's own room
        /// (a late arrival is counted by the accuracy; a tag that stays should not move away).
        public var flaps = 0
        /// The stays' total length, seconds.
        public var staySeconds = 0.0
        /// Position errors (3-D, metres) of the lines with a position and a true position.
        public var positionErrors: [Double] = []
        /// Lines at times with a true position but no estimate.
        public var missingPositions = 0
        /// Presence lines inside a true stay whose room is `unknown`.
        public var unknownSamples = 0
        /// Presence lines inside a stay with a known room, by the room's confidence: ≥ 0.9,
        /// 0.7–0.9, 0.5–0.7 and below 0.5 (lines without a confidence count as 1): how many, and
        /// how many had the right room.
        public var confidenceBins: [ConfidenceBin] = [0.9, 0.7, 0.5, 0].map { ConfidenceBin(lower: $0) }
        /// Presence lines inside a stay whose room has a floor in the truth, with a known room.
        public var floorSamples = 0
        /// Of those, with the right floor.
        public var floorRight = 0
        /// Changes of floor in the presence lines (between known floors, per beacon).
        public var floorChanges = 0
        /// Changes of floor between consecutive stays of a beacon in the truth (as walked).
        public var trueFloorChanges = 0

        /// The share of stay time with the room unknown (0–1).
        public var unknownShare: Double? { roomSamples > 0 ? Double(unknownSamples) / Double(roomSamples) : nil }
        /// The share of stay time with the right floor (0–1), if the truth names floors.
        public var floorAccuracy: Double? { floorSamples > 0 ? Double(floorRight) / Double(floorSamples) : nil }
        /// Positions that stated a 90 % radius (`radius90`), and those whose horizontal error
        /// was within it.
        public var statedRadius = 0
        /// See ``statedRadius``.
        public var withinRadius = 0
        /// Errors (3-D, metres) of the smoothed positions (`smoothed` in a presence line), each
        /// against the truth at its own time.
        public var smoothedErrors: [Double] = []
        /// Smoothed positions that stated a 90 % radius, and those whose horizontal error was
        /// within it.
        public var smoothedStatedRadius = 0
        /// See ``smoothedStatedRadius``.
        public var smoothedWithinRadius = 0

        /// The share of positions whose horizontal error was within their stated 90 % radius
        /// (about 0.9 when the uncertainty is calibrated).
        public var radiusCoverage: Double? { statedRadius > 0 ? Double(withinRadius) / Double(statedRadius) : nil }

        /// The share of stay time with the right room (0–1), if any line fell in a stay.
        public var roomAccuracy: Double? { roomSamples > 0 ? Double(roomRight) / Double(roomSamples) : nil }
        /// Room changes inside stays per hour of stays.
        public var flapsPerHour: Double? { staySeconds > 0 ? Double(flaps) / staySeconds * 3600 : nil }
        /// The median position error, metres.
        public var medianPositionError: Double? { Self.percentile(positionErrors, 0.5) }
        /// The 90th percentile of the position error, metres.
        public var p90PositionError: Double? { Self.percentile(positionErrors, 0.9) }
        /// The median error of the smoothed positions, metres.
        public var medianSmoothedError: Double? { Self.percentile(smoothedErrors, 0.5) }
        /// The 90th percentile of the smoothed positions' error, metres.
        public var p90SmoothedError: Double? { Self.percentile(smoothedErrors, 0.9) }
        /// The share of smoothed positions whose horizontal error was within their 90 % radius.
        public var smoothedRadiusCoverage: Double? {
            smoothedStatedRadius > 0 ? Double(smoothedWithinRadius) / Double(smoothedStatedRadius) : nil
        }

        static func percentile(_ values: [Double], _ p: Double) -> Double? {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            let rank = p * Double(sorted.count - 1)
            let low = Int(rank.rounded(.down))
            let high = min(sorted.count - 1, low + 1)
            return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
        }

        /// The report as text, one figure per line.
        public var text: String {
            func f(_ value: Double?, _ format: (Double) -> String) -> String { value.map(format) ?? "n/a" }
            let bins = confidenceBins.enumerated().map { i, bin in
                let range =
                    i == 0 ? "≥ 0.9" : i == confidenceBins.count - 1 ? "< 0.5" : "\(bin.lower)–\(confidenceBins[i - 1].lower)"
                let share = bin.samples > 0 ? String(format: "%.1f %%", Double(bin.right) / Double(bin.samples) * 100) : "n/a"
                return "\(range): \(share) of \(bin.samples)"
            }
            var lines = """
                room right while staying   \(f(roomAccuracy) { String(format: "%.1f %%", $0 * 100) }) (\(roomRight) of \(roomSamples) cycles in \(String(format: "%.0f", staySeconds)) s of stays)
                room unknown while staying \(f(unknownShare) { String(format: "%.1f %%", $0 * 100) }) (\(unknownSamples) cycles)
                room right by confidence   \(bins.joined(separator: ", "))
                room flaps within stays    \(flaps) (\(f(flapsPerHour) { String(format: "%.1f", $0) }) per hour)
                position error median      \(f(medianPositionError) { String(format: "%.2f m", $0) })
                position error p90         \(f(p90PositionError) { String(format: "%.2f m", $0) }) (\(positionErrors.count) cycles; \(missingPositions) without a position)
                within the 90 % radius     \(f(radiusCoverage) { String(format: "%.1f %%", $0 * 100) }) (\(withinRadius) of \(statedRadius) positions)
                """
            if !smoothedErrors.isEmpty {
                lines += """

                    smoothed position median   \(f(medianSmoothedError) { String(format: "%.2f m", $0) })
                    smoothed position p90      \(f(p90SmoothedError) { String(format: "%.2f m", $0) }) (\(smoothedErrors.count) positions, each at its own time)
                    smoothed within its radius \(f(smoothedRadiusCoverage) { String(format: "%.1f %%", $0 * 100) })
                    """
            }
            if floorSamples > 0 {
                lines += """

                    floor right while staying  \(f(floorAccuracy) { String(format: "%.1f %%", $0 * 100) }) (\(floorRight) of \(floorSamples) cycles)
                    floor changes              \(floorChanges) (walked: \(trueFloorChanges))
                    """
            }
            return lines
        }
    }

    /// Presence lines whose room confidence is at least ``lower`` (and below the previous bin's).
    public struct ConfidenceBin: Hashable, Sendable {
        /// The bin's lower bound.
        public var lower: Double
        /// Lines in the bin.
        public var samples = 0
        /// Of those, with the right room.
        public var right = 0
    }
}
