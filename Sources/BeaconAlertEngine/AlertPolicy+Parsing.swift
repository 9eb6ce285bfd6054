import BeaconCore

extension AlertPolicy {
    /// Creates a policy from the plain values of a configuration file (the keys of
    /// `Docs/AlertEngine.md`): durations as `10m`, `notBefore` as RFC 3339, `firing`, `repeat`
    /// `firstStart`, `priority` and the callbacks as strings. Throws on the first option that cannot work.
    public init(
        delay: String?, notBefore: String?, firing: String?, repeat repeatText: String?,
        cooldown: String?, window: DeliveryWindow?, cancelOn: [CancelCondition],
        callback: String? = nil, callbackCreated: String? = nil, callbackDelivered: String? = nil,
        callbackCancelled: String? = nil, callbackError: String? = nil,
        maxLateness: String? = nil, remind: ReminderPolicy? = nil, scheduleCondition: AlertCondition? = nil,
        deliverWhen: DeliveryCondition? = nil, firstStart: String? = nil, priority: String? = nil
    ) throws(AlertPolicyError) {
        func duration(_ text: String?, _ option: String) throws(AlertPolicyError) -> Duration? {
            guard let text else { return nil }
            guard let value = Duration(parsing: text) else {
                throw .unknownValue(option: option, value: text, accepted: ["a duration such as 30s, 10m, 2h, 1d"])
            }
            return value
        }
        var time: Timestamp?
        if let notBefore {
            guard let parsed = Timestamp(rfc3339: notBefore) else {
                throw .unknownValue(
                    option: "notBefore", value: notBefore,
                    accepted: ["an RFC 3339 time in the years 1900–2200, such as 2025-06-01T08:00:00+02:00"])
            }
            time = parsed
        }
        try self.init(
            delay: try duration(delay, "delay"), notBefore: time,
            firing: try firing.map { t throws(AlertPolicyError) in try FiringMode(parsing: t) } ?? .everyActivation,
            repeat: try repeatText.map { t throws(AlertPolicyError) in try RepeatInterval(parsing: t) } ?? .off,
            cooldown: try duration(cooldown, "cooldown"), window: window, cancelOn: cancelOn,
            callbacks: try CallbackDestinations(
                callback: callback, created: callbackCreated,
                delivered: callbackDelivered, cancelled: callbackCancelled,
                error: callbackError),
            maxLateness: try duration(maxLateness, "maxLateness"), remind: remind, scheduleCondition: scheduleCondition,
            deliverWhen: deliverWhen,
            firstStart: try firstStart.map { t throws(AlertPolicyError) in try FirstStart(parsing: t) } ?? .fire,
            priority: try priority.map { t throws(AlertPolicyError) in try AlertPriority(parsing: t) } ?? .active)
    }
}

extension AlertPriority {
    /// Reads `passive`, `active`, `time-sensitive` or `critical`.
    public init(parsing text: String) throws(AlertPolicyError) {
        guard let value = AlertPriority(rawValue: text) else {
            throw .unknownValue(option: "priority", value: text, accepted: Self.allCases.map(\.rawValue))
        }
        self = value
    }
}
