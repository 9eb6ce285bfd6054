import BeaconCore

/// What the engine remembers about an alert and beacon beyond its pending delivery: enough to
/// apply `first`/`once-per-beacon`, the cooldown, and never to deliver the same occurrence twice.
///
/// One is kept per alert and beacon ever fired, in the engine and in its store, so it is stored
/// compactly (128 bytes, where the plain properties took 200): the optional times as
/// nanoseconds with one bit each saying whether they are set, and the rare answer out of line.
public struct AlertHistory: Hashable, Sendable {
    /// The alert and beacon.
    public var key: AlertKey
    /// Which optional times are set (a ``Slot`` bit each); an unset one is stored as 0.
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
    private var answerBox: AnswerBox?

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
    /// The latest answer (acknowledged or dismissed) and the instance it answered.
    public var answer: AlertAnswer? {
        get { answerBox?.answer }
        set { answerBox = newValue.map(AnswerBox.init) }
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
        answer: AlertAnswer? = nil, suppressedUntil: Timestamp? = nil
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
    }

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

    /// An answer, out of line: most histories have none.
    private final class AnswerBox: Hashable, Sendable {
        let answer: AlertAnswer
        init(_ answer: AlertAnswer) { self.answer = answer }
        static func == (a: AnswerBox, b: AnswerBox) -> Bool { a.answer == b.answer }
        func hash(into hasher: inout Hasher) { hasher.combine(answer) }
    }
}
