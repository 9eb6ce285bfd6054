/// The numbers self-calibration needs: a robust loss and a symmetric solve.
enum CalibrationMath {
    /// Huber's loss of a residual `r` with threshold `k`: squared within it, linear beyond.
    static func huberLoss(_ r: Double, _ k: Double) -> Double {
        let a = abs(r)
        return a <= k ? r * r / 2 : k * a - k * k / 2
    }

    /// Solves the symmetric positive-definite system `a`·x = `b` (Cholesky), or `nil`.
    static func choleskySolve(_ a: [Double], _ b: [Double], size n: Int) -> [Double]? {
        var l = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0...i {
                var sum = a[i * n + j]
                for k in 0..<j { sum -= l[i * n + k] * l[j * n + k] }
                if i == j {
                    guard sum > 0, sum.isFinite else { return nil }
                    l[i * n + i] = sum.squareRoot()
                } else {
                    l[i * n + j] = sum / l[j * n + j]
                }
            }
        }
        var y = b
        for i in 0..<n {
            var sum = y[i]
            for k in 0..<i { sum -= l[i * n + k] * y[k] }
            y[i] = sum / l[i * n + i]
        }
        var x = y
        for i in stride(from: n - 1, through: 0, by: -1) {
            var sum = x[i]
            for k in (i + 1)..<n { sum -= l[k * n + i] * x[k] }
            x[i] = sum / l[i * n + i]
        }
        return x
    }
}

/// `value` to two decimals, for messages.
func rounded(_ value: Double) -> String {
    let scaled = (value * 100).rounded() / 100
    return "\(scaled)"
}
