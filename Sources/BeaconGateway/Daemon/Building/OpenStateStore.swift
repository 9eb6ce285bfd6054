import BeaconAlertEngine
import BeaconSinks
import BeaconStore
import Logging

/// The daemon's state store and outbox: the SQLite file at `path`, held for this process alone
/// (`FILE.lock`), or, without one, memory (lost on exit, which the log says).
/// - Throws: ``GatewayError/state(path:message:)`` when the file cannot be opened or is held.
func openStateStore(
    _ path: String?, outbox configuration: OutboxConfiguration, logger: Logger
) throws(GatewayError) -> (any AlertStateStore, any Outbox) {
    guard let path else {
        logger.warning("no 'state:' file: alert state and undelivered events are kept in memory and lost on exit")
        let memory = InMemoryOutboxStore(outbox: configuration)
        return (memory, memory.outbox)
    }
    do {
        let sqlite = try SQLiteAlertStateStore(path: path, outbox: configuration, exclusive: true)
        return (sqlite, sqlite)
    } catch {
        throw .state(path: path, message: "\(error)")
    }
}
