import Foundation
import FoundationEssentials
import Yams

extension ConfigNode {
    /// Reads and parses a YAML file. A file that is not valid UTF-8 is refused at its first
    /// invalid byte (line, column and byte offset), not taken for a file that cannot be read.
    public static func load(path: String) throws(ConfigurationError) -> ConfigNode {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigurationError(
                file: path, message: "cannot read the file (\(error.localizedDescription)); check the path and permissions")
        }
        return try ConfigNode(yaml: try text(of: bytes, file: path), file: path)
    }

    /// `bytes` as text, or an error at the first byte that is not UTF-8.
    static func text(of bytes: Data, file: String) throws(ConfigurationError) -> String {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            case .error:
                let before = bytes.prefix(offset)
                let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
                let line = before.count { $0 == UInt8(ascii: "\n") } + 1
                // Columns count characters, as the YAML reader's do.
                let column = String(decoding: before[lineStart...], as: UTF8.self).unicodeScalars.count + 1
                let byte = String(bytes[bytes.startIndex + offset], radix: 16, uppercase: true)
                throw ConfigurationError(
                    file: file, line: line, column: column,
                    message: "the file is not valid UTF-8: byte 0x\(byte.count == 1 ? "0" : "")\(byte) at offset \(offset) "
                        + "cannot start or continue a character; save the file as UTF-8 (configuration and scenario "
                        + "files are UTF-8 text)")
            }
        }
    }
}

extension ConfigurationError {
    /// An error of Yams' parser, at its line and column.
    static func fromYams(_ error: YamlError, file: String) -> ConfigurationError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let text = context.map { "\($0.text) \(problem)" } ?? problem
            return ConfigurationError(file: file, line: mark.line, column: mark.column, message: "invalid YAML: \(text)")
        case .duplicatedKeysInMapping(let duplicates, let mapping):
            return ConfigurationError(
                file: file, line: mapping.mark.line, column: mapping.mark.column,
                message: "invalid YAML: duplicated keys \(duplicates.joined(separator: ", ")) in this mapping; keep one of each")
        case .reader(let problem, let offset, let value, let yaml):
            // The reader refuses characters YAML does not allow (control characters, for one); its
            // offset counts characters from the start of the text.
            let before = yaml.prefix(offset ?? 0)
            let lineStart = before.lastIndex(where: \.isNewline).map { before.index(after: $0) } ?? before.startIndex
            let character = value >= 0 ? String(format: " (U+%04X)", value) : ""
            return ConfigurationError(
                file: file, line: before.count(where: \.isNewline) + 1,
                column: before[lineStart...].unicodeScalars.count + 1,
                message: "invalid YAML: \(problem)\(character); remove the character or write it as an escape in quotes")
        default:
            return ConfigurationError(file: file, message: "invalid YAML: \(error)")
        }
    }
}
