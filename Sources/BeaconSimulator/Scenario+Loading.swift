import BeaconCore
import Foundation
import Yams

extension Scenario {
    /// Reads and validates a scenario file (format: `Docs/Simulator.md`).
    /// - Throws: ``ScenarioError``, whose description starts with `file:line:`.
    public static func load(path: String) throws -> Scenario {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ScenarioError.unreadable(file: path, reason: "\(error.localizedDescription)")
        }
        return try parse(yaml: text, file: path)
    }

    /// Parses and validates scenario YAML; `file` names it in error messages.
    public static func parse(yaml: String, file: String = "<scenario>") throws -> Scenario {
        let root = try YAMLDocument.root(yaml: yaml, file: file)
        return try ScenarioReader(file: file).read(root)
    }
}

/// Turns YAML text into its root node, mapping Yams' errors to ``ScenarioError``.
enum YAMLDocument {
    static func root(yaml: String, file: String) throws -> YAMLField {
        let node: Node?
        do {
            node = try compose(yaml: yaml)
        } catch let error as YamlError {
            throw ScenarioError.syntax(file: file, line: error.line, problem: error.problem)
        }
        guard let node else { throw ScenarioError.syntax(file: file, line: 1, problem: "the document is empty") }
        return YAMLField(node: node, path: "", file: file)
    }
}

extension YamlError {
    var line: Int {
        switch self {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark.line
        default: 1
        }
    }

    var problem: String {
        switch self {
        case .scanner(let context, let problem, _, _), .parser(let context, let problem, _, _),
            .composer(let context, let problem, _, _):
            context.map { "\($0.text) \(problem)" } ?? problem
        case .duplicatedKeysInMapping(let duplicates, _):
            "duplicated keys \(duplicates.joined(separator: ", "))"
        default:
            "\(self)"
        }
    }
}
