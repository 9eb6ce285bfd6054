/// What `promtool check metrics` would say of a Prometheus text exposition (format 0.0.4), as
/// far as the tests need it: every family has one `# HELP` (not empty) and one `# TYPE` before
/// its samples, and its samples are together; names and label names are valid (no colons: those
/// are for recording rules); a counter's name ends in `_total`; a histogram has its buckets
/// (with `le`, ending at `+Inf`), `_sum` and `_count`; every value is a number; no series twice.
enum PrometheusTextLint {
    /// The problems of `text`, one line each (empty: it lints clean).
    static func problems(in text: String) -> [String] {
        var problems: [String] = []
        var help: [String: String] = [:]
        var type: [String: String] = [:]
        var finished: Set<String> = []
        var current: String?
        var series: Set<String> = []
        var buckets: [String: [String]] = [:]
        var parts: [String: Set<String>] = [:]

        func family(of sample: String) -> String {
            for suffix in ["_bucket", "_sum", "_count"] where sample.hasSuffix(suffix) {
                let base = String(sample.dropLast(suffix.count))
                if type[base] == "histogram" || type[base] == "summary" { return base }
            }
            return sample
        }
        func enter(_ name: String, line: Int) {
            if current != name {
                if let current { finished.insert(current) }
                if finished.contains(name) { problems.append("line \(line): the samples of \(name) are not together") }
                current = name
            }
        }

        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            let text = String(raw)
            if text.isEmpty { continue }
            if text.hasPrefix("# HELP ") || text.hasPrefix("# TYPE ") {
                let words = text.dropFirst(7).split(separator: " ", maxSplits: 1).map(String.init)
                guard let name = words.first else {
                    problems.append("line \(line): a comment without a metric name")
                    continue
                }
                if !isMetricName(name) { problems.append("line \(line): '\(name)' is not a valid metric name") }
                enter(name, line: line)
                let value = words.count > 1 ? words[1] : ""
                if text.hasPrefix("# HELP ") {
                    if help[name] != nil { problems.append("line \(line): a second HELP for \(name)") }
                    if value.isEmpty { problems.append("line \(line): \(name) has an empty HELP") }
                    help[name] = value
                } else {
                    if type[name] != nil { problems.append("line \(line): a second TYPE for \(name)") }
                    if !["counter", "gauge", "histogram", "summary", "untyped"].contains(value) {
                        problems.append("line \(line): \(name) has the unknown TYPE '\(value)'")
                    }
                    if value == "counter", !name.hasSuffix("_total") {
                        problems.append("line \(line): the counter \(name) should end in _total")
                    }
                    type[name] = value
                }
                continue
            }
            if text.hasPrefix("#") { continue }
            guard let sample = parseSample(text) else {
                problems.append("line \(line): not a sample: \(text)")
                continue
            }
            let name = family(of: sample.name)
            enter(name, line: line)
            if help[name] == nil { problems.append("line \(line): \(name) has no HELP before its samples") }
            if type[name] == nil { problems.append("line \(line): \(name) has no TYPE before its samples") }
            for label in sample.labels where !isLabelName(label.name) {
                problems.append("line \(line): '\(label.name)' is not a valid label name")
            }
            let identity =
                sample.name + "{" + sample.labels.map { "\($0.name)=\($0.value)" }.sorted().joined(separator: ",") + "}"
            if !series.insert(identity).inserted { problems.append("line \(line): \(identity) appears twice") }
            if type[name] == "histogram" {
                parts[name, default: []].insert(String(sample.name.dropFirst(name.count)))
                if sample.name.hasSuffix("_bucket") {
                    guard let le = sample.labels.first(where: { $0.name == "le" }) else {
                        problems.append("line \(line): a bucket of \(name) without le")
                        continue
                    }
                    buckets[name, default: []].append(le.value)
                }
            }
        }
        for (name, kind) in type where kind == "histogram" {
            for part in ["_bucket", "_sum", "_count"] where !(parts[name] ?? []).contains(part) {
                problems.append("the histogram \(name) has no \(name)\(part)")
            }
            if !(buckets[name] ?? []).contains("+Inf") { problems.append("the histogram \(name) has no le=\"+Inf\" bucket") }
        }
        return problems
    }

    struct Sample {
        var name: String
        var labels: [(name: String, value: String)]
        var value: Double
    }

    /// `name{label="value",…} value [timestamp]`, with `\\`, `\"` and `\n` in values.
    static func parseSample(_ line: String) -> Sample? {
        let characters = Array(line)
        var index = 0
        var name = ""
        while index < characters.count, characters[index] != "{", characters[index] != " " {
            name.append(characters[index])
            index += 1
        }
        guard isMetricName(name) else { return nil }
        var labels: [(String, String)] = []
        if index < characters.count, characters[index] == "{" {
            index += 1
            while index < characters.count, characters[index] != "}" {
                var label = ""
                while index < characters.count, characters[index] != "=" {
                    label.append(characters[index])
                    index += 1
                }
                guard index + 1 < characters.count, characters[index + 1] == "\"" else { return nil }
                index += 2
                var value = ""
                while index < characters.count, characters[index] != "\"" {
                    if characters[index] == "\\" {
                        guard index + 1 < characters.count, ["\\", "\"", "n"].contains(characters[index + 1]) else {
                            return nil
                        }
                        value.append(characters[index + 1] == "n" ? "\n" : characters[index + 1])
                        index += 2
                    } else {
                        value.append(characters[index])
                        index += 1
                    }
                }
                guard index < characters.count else { return nil }
                index += 1
                labels.append((label, value))
                if index < characters.count, characters[index] == "," { index += 1 }
            }
            guard index < characters.count else { return nil }
            index += 1
        }
        let rest = String(characters[index...]).split(separator: " ")
        guard (1...2).contains(rest.count) else { return nil }
        let valueText = String(rest[0])
        let value: Double? =
            switch valueText {
            case "+Inf": .infinity
            case "-Inf": -.infinity
            case "NaN": .nan
            default: Double(valueText)
            }
        guard let value, rest.count == 1 || Int64(rest[1]) != nil else { return nil }
        return Sample(name: name, labels: labels, value: value)
    }

    static func isMetricName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" }
    }

    static func isLabelName(_ name: String) -> Bool { isMetricName(name) && !name.hasPrefix("__") }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
