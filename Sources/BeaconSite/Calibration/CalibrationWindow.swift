import BeaconCore

/// The measurements a hub's self-calibration fits: the newest fixes of moving beacons (several
/// gateways hearing one beacon in one cycle, position unknown) and of anchors (position known),
/// each in a ring of its own so that a crowd of moving beacons never pushes the anchors out.
///
/// Fixed storage, allocated once: ``perFix`` measurements per fix (the strongest gateways).
struct CalibrationWindow {
    /// One gateway's measurement in a fix: its index, the path loss (the beacon's measured power
    /// minus the cycle's mean RSSI, configured offset applied, calibrated offset not) and how
    /// many sightings the mean rests on.
    struct Measurement {
        var gateway: UInt16 = 0
        var samples: UInt16 = 0
        var loss: Float = 0
    }

    /// One fix's header.
    struct Fix {
        /// Measurements used (the rest of the fix's ``perFix`` slots are empty).
        var count: Int = 0
        /// Where an anchor is; `nil` for a moving beacon.
        var known: Vector3?
        /// The gateway that is the anchor (it never hears itself; -1 for none).
        var anchorGateway: Int = -1
        /// The beacon's height: an anchor's, or the tags' height the fix was solved at.
        var height: Double = 0
        /// Where the hub placed the moving beacon when the fix was taken (`nil` before any): what
        /// the fit counts places by. Tracked by the grid filter, the mean of its posterior that
        /// cycle, with `spread` its σ per axis (metres), which the fit solves the fix within;
        /// otherwise its previous reported position, with `spread` 0.
        var place: Place?
    }

    /// Where the hub placed a moving beacon (``Fix/place``).
    typealias Place = (x: Float, y: Float, spread: Float)

    static let perFix = 16

    private(set) var mobile: Ring
    private(set) var anchored: Ring

    init(capacity: Int) {
        mobile = Ring(capacity: max(1, capacity))
        anchored = Ring(capacity: max(1, capacity / 2))
    }

    /// Fixes held, moving and anchored.
    var count: Int { mobile.count + anchored.count }

    /// Appends a fix from `measurements` (the strongest ``perFix`` are kept): an anchor's at
    /// `known`, or a moving beacon's at the tags' `height`.
    mutating func append(
        _ measurements: UnsafeBufferPointer<Measurement>, known: Vector3?, height: Double, anchorGateway: Int = -1,
        place: Place? = nil
    ) {
        if let known {
            anchored.append(measurements, known: known, height: known.z, anchorGateway: anchorGateway, place: nil)
        } else {
            mobile.append(measurements, known: nil, height: height, anchorGateway: -1, place: place)
        }
    }

    /// A ring of fixes.
    struct Ring {
        private(set) var headers: [Fix]
        private(set) var measurements: [Measurement]
        private(set) var count = 0
        private var next = 0

        init(capacity: Int) {
            headers = Array(repeating: Fix(), count: capacity)
            measurements = Array(repeating: Measurement(), count: capacity * CalibrationWindow.perFix)
        }

        var capacity: Int { headers.count }

        mutating func append(
            _ source: UnsafeBufferPointer<Measurement>, known: Vector3?, height: Double, anchorGateway: Int,
            place: Place?
        ) {
            let base = next * CalibrationWindow.perFix
            var kept = 0
            for m in source {
                if kept < CalibrationWindow.perFix {
                    measurements[base + kept] = m
                    kept += 1
                    continue
                }
                // Full: replace the weakest (largest loss) when this one is stronger.
                var weakest = base
                for i in base..<(base + kept) where measurements[i].loss > measurements[weakest].loss { weakest = i }
                if m.loss < measurements[weakest].loss { measurements[weakest] = m }
            }
            headers[next] = Fix(count: kept, known: known, anchorGateway: anchorGateway, height: height, place: place)
            next = (next + 1) % capacity
            count = min(count + 1, capacity)
        }

        /// The `i`th fix held (any order), with its measurements.
        func fix(_ i: Int) -> (header: Fix, measurements: ArraySlice<Measurement>) {
            let base = i * CalibrationWindow.perFix
            return (headers[i], measurements[base..<(base + headers[i].count)])
        }
    }
}
