/// A status API query with a value its endpoint cannot use: answered `400`, with ``message``.
struct StatusQueryError: Error, Sendable, CustomStringConvertible {
    /// What was wrong and what to give instead (`sort=colour is not one of id, title, …`).
    let message: String

    /// An error saying `message`.
    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
