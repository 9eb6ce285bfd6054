import BeaconCore

/// Why the MQTT sink did not get an event to the broker (the outbox retries it later).
public enum MQTTSinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// libmosquitto refused an operation (its error text).
    case library(operation: String, message: String)
    /// Not connected to the broker within the timeout.
    case notConnected(broker: String, timeout: Duration)
    /// The broker refused the connection (its CONNACK reason, e.g. not authorised).
    case refused(broker: String, reason: String)
    /// The broker did not acknowledge the publication (PUBACK) within the timeout.
    case notAcknowledged(broker: String, timeout: Duration)

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .library(let operation, let message):
            "mosquitto \(operation) failed: \(message)"
        case .notConnected(let broker, let timeout):
            "not connected to the MQTT broker \(broker) within \(timeout.approximate); check that it runs and accepts this client"
        case .refused(let broker, let reason):
            "the MQTT broker \(broker) refused the connection (\(reason)); check the username, password and TLS settings of the sink"
        case .notAcknowledged(let broker, let timeout):
            "the MQTT broker \(broker) did not acknowledge (PUBACK) within \(timeout.approximate); it is retried"
        }
    }
}
