import BeaconCore

/// How the engine treats one alert definition once its strategy fires: when to deliver, which
/// firings count, repeats, cooldown, delivery window, cancellation and callbacks.
///
/// An immutable value, validated when created (the initialiser throws on an option that cannot
/// work). Every option maps to one key of the alert's configuration; see `Docs/AlertEngine.md`.
public struct AlertPolicy: Hashable, Sendable {
    /// When the first delivery is due, relative to the firing.
    public enum Schedule: Hashable, Sendable {
        /// At the firing.
        case immediately
        /// This long after the firing (`delay`).
        case after(Duration)
        /// At the firing, but not before this time (`notBefore`).
        case notBefore(Timestamp)
    }

    /// When the first delivery is due.
    public let schedule: Schedule
    /// Which firings count (`firing`).
    public let firing: FiringMode
    /// How the alert repeats after its first delivery (`repeat`).
    public let repeatInterval: RepeatInterval
    /// After a delivery, firings for the same alert and beacon are ignored for this long (`cooldown`).
    public let cooldown: Duration?
    /// When delivery is allowed (`window`); `nil` = any time.
    public let window: DeliveryWindow?
    /// What cancels a pending alert (`cancelOn`).
    public let cancelOn: [CancelCondition]
    /// Where each kind of event goes (`callback`, `callbackCreated`, …).
    public let callbacks: CallbackDestinations
    /// A pending alert found due later than this (the engine was not running) is dropped instead
    /// of delivered late (`maxLateness`); `nil` = always deliver late.
    public let maxLateness: Duration?
    /// Deliveries again until someone answers (`remind`, with `escalate`); `nil` = one delivery.
    public let remind: ReminderPolicy?
    /// Checked when the strategy fires: when it does not hold, the alert is not scheduled (a
    /// `cancelled` event says why) (`scheduleCondition`).
    public let scheduleCondition: AlertCondition?
    /// A due alert waits for this condition, at most its `maxWait` (`deliverWhen`).
    public let deliverWhen: DeliveryCondition?
    /// What the alert does for the beacons already in range when it first starts (`firstStart`).
    public let firstStart: FirstStart
    /// What the alert may interrupt (`priority`): a `time-sensitive` one passes its delivery
    /// window, a `critical` one its cooldown and suppression too; a `passive` one never reminds.
    public let priority: AlertPriority

    /// Creates a policy from typed values; throws when both `delay` and `notBefore` are given or a
    /// duration is not positive.
    public init(
        delay: Duration? = nil, notBefore: Timestamp? = nil, firing: FiringMode = .everyActivation,
        repeat repeatInterval: RepeatInterval = .off, cooldown: Duration? = nil, window: DeliveryWindow? = nil,
        cancelOn: [CancelCondition] = [], callbacks: CallbackDestinations = .none,
        maxLateness: Duration? = nil, remind: ReminderPolicy? = nil, scheduleCondition: AlertCondition? = nil,
        deliverWhen: DeliveryCondition? = nil, firstStart: FirstStart = .fire, priority: AlertPriority = .active
    ) throws(AlertPolicyError) {
        if remind != nil && repeatInterval != .off { throw .remindAndRepeat }
        if remind != nil && priority == .passive { throw .passiveReminds }
        switch (delay, notBefore) {
        case (.some, .some): throw .delayAndNotBefore
        case (.some(let delay), nil):
            guard delay >= .zero else { throw .invalidDuration(option: "delay", value: delay) }
            schedule = delay == .zero ? .immediately : .after(delay)
        case (nil, .some(let time)): schedule = .notBefore(time)
        case (nil, nil): schedule = .immediately
        }
        if let cooldown, cooldown <= .zero { throw .invalidDuration(option: "cooldown", value: cooldown) }
        if let maxLateness, maxLateness < .zero { throw .invalidDuration(option: "maxLateness", value: maxLateness) }
        self.firing = firing
        self.repeatInterval = repeatInterval
        self.cooldown = cooldown
        self.window = window
        self.cancelOn = cancelOn
        self.callbacks = callbacks
        self.maxLateness = maxLateness
        self.remind = remind
        self.scheduleCondition = scheduleCondition
        self.deliverWhen = deliverWhen
        self.firstStart = firstStart
        self.priority = priority
    }

    /// The delivery window the engine keeps to: `nil` when there is none, or when the alert's
    /// priority passes it (`time-sensitive`, `critical`).
    public var enforcedWindow: DeliveryWindow? { priority.passesDeliveryWindow ? nil : window }

    /// For an alert whose priority passes its delivery window, while that window is closed at
    /// `time`: what its events say; `nil` otherwise.
    func passedWindowNote(at time: Timestamp) -> String? {
        guard priority.passesDeliveryWindow, let window, !window.contains(time) else { return nil }
        return "\(priority): passed the delivery window (\(window)), closed at \(time.rfc3339String)"
    }

    /// Whether the policy looks at the world (`scheduleCondition`, `deliverWhen`).
    public var hasConditions: Bool { scheduleCondition != nil || deliverWhen != nil }

    /// Deliver at the firing, every activation, no repeat, no window, no callbacks.
    public static let `default` = try! AlertPolicy()

    /// When a firing at `time` is first due (before any window deferral).
    public func firstDue(firedAt time: Timestamp) -> Timestamp {
        switch schedule {
        case .immediately: time
        case .after(let delay): time + delay
        case .notBefore(let earliest): max(time, earliest)
        }
    }
}
