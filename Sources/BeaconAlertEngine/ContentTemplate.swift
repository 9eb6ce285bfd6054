/// A title or message with fields in braces, read once from the configuration: `"{name} has
/// waited {dwell} at the {room} desk"`. `{{` and `}}` write a brace.
public struct ContentTemplate: Hashable, Sendable, CustomStringConvertible {
    /// A piece of the text: as written, or a field filled in for each event.
    enum Segment: Hashable, Sendable {
        case text(String)
        case field(ContentField)
    }

    let segments: [Segment]
    /// The template as written.
    public let description: String

    /// Reads `text`; throws on an unknown field or an unclosed brace, naming the fields there are.
    public init(parsing text: String) throws(ContentTemplateError) {
        var segments: [Segment] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "{" || character == "}", next < text.endIndex, text[next] == character {
                literal.append(character)
                index = text.index(after: next)
                continue
            }
            if character == "}" { throw .unopenedBrace(text) }
            guard character == "{" else {
                literal.append(character)
                index = next
                continue
            }
            guard let close = text[next...].firstIndex(of: "}") else { throw .unclosedBrace(text) }
            let name = String(text[next..<close])
            guard let field = ContentField(rawValue: name) else {
                throw .unknownField(name, in: text)
            }
            if !literal.isEmpty { segments.append(.text(literal)) }
            literal = ""
            segments.append(.field(field))
            index = text.index(after: close)
        }
        if !literal.isEmpty { segments.append(.text(literal)) }
        self.segments = segments
        description = text
    }

    /// Whether it names no field (it reads the same for every event).
    public var isConstant: Bool { !segments.contains { if case .field = $0 { true } else { false } } }

    /// The fields it names, in order.
    public var fields: [ContentField] {
        segments.compactMap { if case .field(let field) = $0 { field } else { nil } }
    }

    /// The text for one event.
    public func render(_ context: ContentContext) -> String {
        var out = ""
        for segment in segments {
            switch segment {
            case .text(let text): out += text
            case .field(let field): out += context.value(of: field)
            }
        }
        return out
    }
}

/// Why a content template cannot be read; the message names the fields there are.
public enum ContentTemplateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `{something}` that is not a ``ContentField``.
    case unknownField(String, in: String)
    /// A `{` with no `}` after it.
    case unclosedBrace(String)
    /// A `}` with no `{` before it.
    case unopenedBrace(String)

    /// What is wrong and what to write.
    public var description: String {
        switch self {
        case .unknownField(let name, let text):
            "'{\(name.prefix(40))}' in '\(text.prefix(80))' is not a field; the fields are \(ContentField.listed) (write {{ for a brace)"
        case .unclosedBrace(let text):
            "'\(text.prefix(80))' opens a brace it does not close; write {field}, or {{ for a brace"
        case .unopenedBrace(let text):
            "'\(text.prefix(80))' closes a brace it did not open; write }} for a brace"
        }
    }
}
