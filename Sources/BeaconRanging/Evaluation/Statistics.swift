/// Order statistics for the evaluation (nearest-rank percentiles).
enum Statistics {
    /// The `p` quantile (0…1) of `values` by nearest rank; `nil` when empty.
    static func quantile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }

    /// `value` with `digits` decimals, or `–` when absent.
    static func fixed(_ value: Double?, _ digits: Int) -> String {
        guard let value, value.isFinite else { return "–" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
        if digits > 0 {
            let fraction = String(Int(scaled) - whole * Int(scale))
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return text
    }
}
