import ArgumentParser

/// Why a command cannot run as asked, said as its error (`error: …` on stderr, exit 2).
struct CommandProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension CommandProblem {
    /// Runs `body`; a ``CommandProblem`` it throws is printed as `error: …` and ends the command
    /// with exit status 2 (what `beacond irk check` and `beacond devices` document).
    static func exitingWithStatus2(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let problem as CommandProblem {
            printError("error: \(problem)")
            throw ExitCode(2)
        }
    }
}
