import BeaconCore

/// What the engine remembers about an alert and beacon beyond its pending delivery: enough to
/// apply `first`/`once-per-beacon`, the cooldown, and never to deliver the same occurrence twice.
///
/// One is kept per alert and beacon ever fired, in the engine and in its store, so it is stored
/// compactly (128 bytes, where the plain properties took 200): the optional times as
/// nanoseconds with one bit each saying whether they are set, and the rarer parts (an answer,
/// earlier instances) out of line.
public struct AlertHistory: Hashable, Sendable {
    /// The alert and beacon.
    public var key: AlertKey
    /// Which optional times are set (a ``Slot`` bit each; an unset one is stored as 0), and the
    /// ``quietUntilGone`` flag in the bit above them.
    private var timesSet: UInt8 = 0
    private var firstFiringNanoseconds: Int64 = 0
    private var lastDeliveredNanoseconds: Int64 = 0
    private var lastDeliveredDueNanoseconds: Int64 = 0
    private var instanceDueNanoseconds: Int64 = 0
    private var suppressedUntilNanoseconds: Int64 = 0
    /// How many deliveries there were (first deliveries; reminders are counted in ``attempts``).
    public var deliveries: Int
    /// How many times that instance was delivered: 1, plus its reminders.
    public var attempts: Int
    /// The key of the strategy that fired that instance (what its answer event names).
    public var instanceStrategy: String?
    private var rare: RareParts?

    /// How many earlier instances a history remembers (``earlierInstanceDues``).
    public static let rememberedEarlierInstances = 16

    /// When the first accepted firing happened (`first` ignores every later one).
    public var firstFiringAt: Timestamp? {
        get { time(.firstFiring, firstFiringNanoseconds) }
        set { firstFiringNanoseconds = mark(.firstFiring, newValue) }
    }
    /// When the last delivery happened (the cooldown counts from it).
    public var lastDeliveredAt: Timestamp? {
        get { time(.lastDelivered, lastDeliveredNanoseconds) }
        set { lastDeliveredNanoseconds = mark(.lastDelivered, newValue) }
    }
    /// The due time of the last delivered occurrence (the delivered key: an occurrence due at
    /// or before it is never delivered again).
    public var lastDeliveredDue: Timestamp? {
        get { time(.lastDeliveredDue, lastDeliveredDueNanoseconds) }
        set { lastDeliveredDueNanoseconds = mark(.lastDeliveredDue, newValue) }
    }
    /// The due time of the latest delivered instance: what an answer names (with the alert and
    /// beacon); `nil` before the first delivery.
    public var instanceDue: Timestamp? {
        get { time(.instanceDue, instanceDueNanoseconds) }
        set { instanceDueNanoseconds = mark(.instanceDue, newValue) }
    }
    /// Until when firings for this alert and beacon are ignored (a dismissal that suppresses;
    /// `Timestamp.distantFuture` for good), until lifted.
    public var suppressedUntil: Timestamp? {
        get { time(.suppressedUntil, suppressedUntilNanoseconds) }
        set { suppressedUntilNanoseconds = mark(.suppressedUntil, newValue) }
    }
    /// True while the beacon is one the alert found already in range at its first start
    /// (`firstStart: quiet`): its firings are ignored until it has gone (its exit clears this).
    public var quietUntilGone: Bool {
        get { timesSet & Self.quietFlag != 0 }
        set { timesSet = newValue ? timesSet | Self.quietFlag : timesSet & ~Self.quietFlag }
    }

    /// The latest answer (acknowledged or dismissed) and the instance it answered.
    public var answer: AlertAnswer? {
        get { rare?.answer }
        set { rare = RareParts.make(answer: newValue, earlierInstanceDues: earlierInstanceDues) }
    }
    /// The due times of the instances delivered before the latest (``instanceDue``), oldest
    /// first, the last ``rememberedEarlierInstances`` of them: an answer naming one of them is
    /// told that a later instance superseded it, one naming any other time that there was none.
    public var earlierInstanceDues: [Timestamp] {
        get { rare?.earlierInstanceDues ?? [] }
        set {
            rare = RareParts.make(
                answer: answer, earlierInstanceDues: Array(newValue.suffix(Self.rememberedEarlierInstances)))
        }
    }

    /// Makes `due` the latest delivered instance, remembering the one it follows.
    public mutating func beginInstance(due: Timestamp) {
        if let previous = instanceDue, previous != due { earlierInstanceDues.append(previous) }
        instanceDue = due
    }

    /// Whether the latest delivered instance waits for an answer.
    public var isAwaitingAnswer: Bool {
        guard let instanceDue else { return false }
        return answer?.instanceDue != instanceDue
    }

    /// Creates a history.
    public init(
        key: AlertKey, firstFiringAt: Timestamp? = nil, lastDeliveredAt: Timestamp? = nil,
        lastDeliveredDue: Timestamp? = nil, deliveries: Int = 0, instanceDue: Timestamp? = nil,
        instanceStrategy: String? = nil, attempts: Int = 0,
        answer: AlertAnswer? = nil, suppressedUntil: Timestamp? = nil, earlierInstanceDues: [Timestamp] = [],
        quietUntilGone: Bool = false
    ) {
        self.key = key
        self.deliveries = deliveries
        self.attempts = attempts
        self.instanceStrategy = instanceStrategy
        self.firstFiringAt = firstFiringAt
        self.lastDeliveredAt = lastDeliveredAt
        self.lastDeliveredDue = lastDeliveredDue
        self.instanceDue = instanceDue
        self.suppressedUntil = suppressedUntil
        self.answer = answer
        self.earlierInstanceDues = earlierInstanceDues
        self.quietUntilGone = quietUntilGone
    }

    /// The bit of ``quietUntilGone`` in `timesSet`.
    private static let quietFlag: UInt8 = 32

    /// The bit of each optional time in `timesSet`.
    private enum Slot: UInt8 {
        case firstFiring = 1, lastDelivered = 2, lastDeliveredDue = 4, instanceDue = 8, suppressedUntil = 16
    }

    private func time(_ slot: Slot, _ nanoseconds: Int64) -> Timestamp? {
        timesSet & slot.rawValue == 0 ? nil : Timestamp(nanosecondsSinceEpoch: nanoseconds)
    }

    /// Marks `slot` set or not, and returns what to store for it (0 when unset, so that equal
    /// histories are stored equal).
    private mutating func mark(_ slot: Slot, _ time: Timestamp?) -> Int64 {
        guard let time else {
            timesSet &= ~slot.rawValue
            return 0
        }
        timesSet |= slot.rawValue
        return time.nanosecondsSinceEpoch
    }

    /// The answer and the earlier instances, out of line: most histories have neither. Immutable
    /// (a change makes a new one), so copies of a history never share a change.
    private final class RareParts: Hashable, Sendable {
        let answer: AlertAnswer?
        let earlierInstanceDues: [Timestamp]

        private init(answer: AlertAnswer?, earlierInstanceDues: [Timestamp]) {
            self.answer = answer
            self.earlierInstanceDues = earlierInstanceDues
        }

        /// The parts, or `nil` when there are none (no allocation for the common history).
        static func make(answer: AlertAnswer?, earlierInstanceDues: [Timestamp]) -> RareParts? {
            answer == nil && earlierInstanceDues.isEmpty
                ? nil : RareParts(answer: answer, earlierInstanceDues: earlierInstanceDues)
        }

        static func == (a: RareParts, b: RareParts) -> Bool {
            a.answer == b.answer && a.earlierInstanceDues == b.earlierInstanceDues
        }
        func hash(into hasher: inout Hasher) {
            hasher.combine(answer)
            hasher.combine(earlierInstanceDues)
        }
    }
}
