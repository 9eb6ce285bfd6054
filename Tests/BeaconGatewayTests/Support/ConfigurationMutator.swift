import BeaconCore
import Foundation

/// Seeded, deterministic mutations of a configuration or scenario file, the kinds a hand edit or
/// a damaged copy makes: a line deleted or duplicated, a value of another type, the file cut
/// short, a tab, broken indentation, a number replaced by text, a negative or a huge value, a
/// byte that is not UTF-8, a control character.
struct ConfigurationMutator {
    /// One mutated file: what was done (for the failure message) and its bytes.
    struct Mutation: CustomStringConvertible {
        let description: String
        let bytes: [UInt8]
    }

    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// `count` mutations of `text`, the same for the same seed.
    mutating func mutations(of text: String, count: Int) -> [Mutation] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Lines with something on them: mutating a comment or a blank line changes nothing.
        let content = lines.indices.filter {
            let trimmed = lines[$0].drop { $0 == " " }
            return !trimmed.isEmpty && !trimmed.hasPrefix("#")
        }
        return (0..<count).map { _ in mutation(of: lines, content: content) }
    }

    private mutating func pick(_ count: Int) -> Int { Int(random.next() % UInt64(max(count, 1))) }

    private mutating func mutation(of lines: [String], content: [Int]) -> Mutation {
        var lines = lines
        let index = content[pick(content.count)]
        let line = lines[index]
        let indentation = String(line.prefix { $0 == " " })
        let body = String(line.dropFirst(indentation.count))
        let what: String
        switch pick(9) {
        case 0:
            lines.remove(at: index)
            what = "deleted line \(index + 1)"
        case 1:
            lines.insert(line, at: index)
            what = "duplicated line \(index + 1)"
        case 2:
            let replacement = ["[\(body.valuePart)]", "{x: \(body.valuePart)}", "", "[]", "{}", "~"][pick(6)]
            lines[index] = indentation + body.keyPart + replacement
            what = "line \(index + 1): value replaced by '\(replacement)'"
        case 3:
            let text = lines.joined(separator: "\n")
            let cut = pick(text.utf8.count + 1)
            return Mutation(description: "cut at byte \(cut)", bytes: Array(text.utf8.prefix(cut)))
        case 4:
            let at = [0, indentation.count, line.count][pick(3)]
            lines[index].insert("\t", at: line.index(line.startIndex, offsetBy: at))
            what = "line \(index + 1): a tab at column \(at + 1)"
        case 5:
            lines[index] = pick(2) == 0 ? " " + line : (line.hasPrefix(" ") ? String(line.dropFirst()) : "   " + line)
            what = "line \(index + 1): indentation broken"
        case 6, 7:
            let numbers = line.numberRanges
            guard !numbers.isEmpty else { return mutation(of: lines, content: content) }
            let range = numbers[pick(numbers.count)]
            let replacement = ["many", "-1", "-99999", "99999999999999999999", "1e999", "0", "\"12\"", "0.5"][pick(8)]
            lines[index].replaceSubrange(range, with: replacement)
            what = "line \(index + 1): a number replaced by \(replacement)"
        default:
            var bytes = Array(lines.joined(separator: "\n").utf8)
            let at = pick(bytes.count + 1)
            let inserted: UInt8 = [0xFF, 0xC3, 0x80, 0x01, 0x1B][pick(5)]
            bytes.insert(inserted, at: at)
            return Mutation(description: "byte 0x\(String(inserted, radix: 16)) inserted at offset \(at)", bytes: bytes)
        }
        return Mutation(description: what, bytes: Array(lines.joined(separator: "\n").utf8))
    }
}

extension String {
    /// `key: ` of a `key: value` line (`- key: ` of a list item), or nothing.
    fileprivate var keyPart: String {
        guard let colon = range(of: ": ") else { return hasPrefix("- ") ? "- " : "" }
        return String(self[..<colon.upperBound])
    }

    /// What follows `key: `, or the whole line.
    fileprivate var valuePart: String {
        guard let colon = range(of: ": ") else { return hasPrefix("- ") ? String(dropFirst(2)) : self }
        return String(self[colon.upperBound...])
    }

    /// The ranges of plain numbers in the line (`42`, `-59`, `2.8`), not parts of words, times,
    /// addresses or UUIDs.
    fileprivate var numberRanges: [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var position = startIndex
        func isWordPart(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || ".:-_/".contains(character)
        }
        while position < endIndex {
            let next = index(after: position)
            let startsNumber = self[position].isNumber || (self[position] == "-" && next < endIndex && self[next].isNumber)
            guard startsNumber, position == startIndex || !isWordPart(self[index(before: position)]) else {
                position = next
                continue
            }
            var end = next
            while end < endIndex, self[end].isNumber || self[end] == "." { end = index(after: end) }
            if end == endIndex || !isWordPart(self[end]) { ranges.append(position..<end) }
            position = end
        }
        return ranges
    }
}
