/// A status API request's query string, read into typed values by each endpoint's `Query`.
///
/// A parameter that is absent (or empty, for numbers and choices) takes its default; a value
/// that cannot be read is a ``StatusQueryError``, answered `400` with what was wrong and what to
/// give instead. Numbers out of range are clamped to it, as the page asks for windows freely.
/// Unknown parameters are ignored.
struct StatusQuery: Sendable {
    /// The query's `name=value` pairs, percent-decoded.
    let parameters: [String: String]

    /// Reads `parameters`.
    init(_ parameters: [String: String]) {
        self.parameters = parameters
    }

    /// The text of `name` as given (empty when given empty), `nil` when absent.
    func text(_ name: String) -> String? {
        parameters[name]
    }

    /// The whole number `name`, clamped to `range`; `defaultValue` when absent or empty.
    /// - Parameter meaning: what the number is, for the error (`"at most how many beacons to list"`).
    /// - Throws: ``StatusQueryError`` when the value is not a whole number.
    func integer(
        _ name: String, default defaultValue: Int, in range: ClosedRange<Int>, meaning: String
    ) throws(StatusQueryError) -> Int {
        guard let text = parameters[name], !text.isEmpty else { return defaultValue }
        guard let value = Int(text) else {
            throw StatusQueryError("\(name)=\(text) is not a whole number: give \(meaning) (default \(defaultValue))")
        }
        return min(max(range.lowerBound, value), range.upperBound)
    }

    /// The choice `name`, one of `Choice`'s raw values; `defaultValue` when absent or empty.
    /// - Throws: ``StatusQueryError`` naming the choices when the value is none of them.
    func choice<Choice: RawRepresentable & CaseIterable>(
        _ name: String, default defaultValue: Choice
    ) throws(StatusQueryError) -> Choice where Choice.RawValue == String {
        guard let text = parameters[name], !text.isEmpty else { return defaultValue }
        guard let choice = Choice(rawValue: text) else {
            let choices = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw StatusQueryError("\(name)=\(text) is not one of \(choices)")
        }
        return choice
    }
}
