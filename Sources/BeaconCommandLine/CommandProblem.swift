/// Why a command cannot run as asked, said as its error (`error: …` on stderr, exit 2).
struct CommandProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
