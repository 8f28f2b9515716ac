/// The observers of one signal, the drainer's place among them, and the signal's phase: the part of a
/// signal's delivery state that does not depend on its types.
///
/// A pure value, kept by its core under the core's lock. The drainer walks `entries` with `cursor`; a
/// removal before the cursor moves it back, so a walk never skips or repeats an entry while others attach
/// and detach between its steps. Handlers are handed out unretained: the owner keeps each one alive for
/// the length of its callout (see `SignalCoreBase.remove(_:)`).
@usableFromInline
struct ObserverList {
    /// The attached observers, in the order they attached.
    ///
    /// Every change to it, like every change of ``phase``, bumps the version of ``changes``: no call site
    /// has to remember to.
    @usableFromInline var entries: ContiguousArray<ObserverEntry> = [] {
        didSet { changes?._withUnsafeGuaranteedRef { $0.listChanged() } }
    }
    /// The index in `entries` of the next entry the drainer looks at.
    @usableFromInline var cursor = 0
    @usableFromInline var phase = Phase.alive {
        didSet { changes?._withUnsafeGuaranteedRef { $0.listChanged() } }
    }
    /// The remembered only observer of a derived signal (`nil` for a signal that is not derived).
    ///
    /// It forgets that observer at every change of ``entries`` or ``phase``. Unretained: the signal's core
    /// owns it and outlives its list.
    @usableFromInline let changes: Unmanaged<SoleRecipient>?
    /// Whether the ``Signal`` object is still reachable, so that new observers may come.
    @usableFromInline var hasOutput: Bool
    /// Whether this is the signal of a producer run that is still starting.
    ///
    /// Until its setup and its work's start have both returned, it does not tear down for want of
    /// observers (see `SignalCoreBase.runStarted()`). A run started with an observer stays so, since that
    /// observer stays attached until the run ends.
    @usableFromInline var isStarting: Bool
    /// Whether someone may still hold the interrupter of a producer run: whoever holds it keeps the run
    /// (see `SignalCoreBase.interrupterReleased()`).
    @usableFromInline var hasInterrupter: Bool

    @inlinable
    init(hasOutput: Bool, isRun: Bool = false, changes: Unmanaged<SoleRecipient>? = nil) {
        self.hasOutput = hasOutput
        isStarting = isRun
        hasInterrupter = isRun
        self.changes = changes
    }

    @usableFromInline
    enum Phase {
        case alive
        /// A terminal event with this sequence number is queued or being delivered.
        case terminating(sequence: UInt64)
        /// Terminated by an event, or torn down (late observers then get `interrupted`).
        case terminated
    }

    /// Whether the signal still accepts events.
    @inlinable
    var isAlive: Bool {
        if case .alive = phase { return true }
        return false
    }

    /// Starts a walk over the observers, for the event with `sequence`.
    @inlinable
    mutating func rewind() {
        cursor = 0
    }

    /// The next observer to receive the value with `sequence`, its handler unretained.
    ///
    /// Returns `nil` when every observer has been offered the value. An entry that was detached before
    /// its turn is skipped, and so is one attached after the value was accepted.
    @inlinable
    mutating func nextValueRecipient(sequence: UInt64) -> Unmanaged<AnyObject>? {
        while cursor < entries.count {
            let entry = entries[cursor]
            cursor &+= 1
            if entry.isActive && entry.firstSequence <= sequence {
                // An active entry always has its handler.
                return Unmanaged.passUnretained(entry.handler.unsafelyUnwrapped)
            }
        }
        return nil
    }

    /// The next observer to receive the terminal event with `sequence`, its handler unretained.
    ///
    /// An entry that receives it is marked served and lets go of its handler, which moves to `held`: the
    /// drainer releases it after the callout. Once the walk reaches the end, it looks at the whole list
    /// once more while the signal is still terminating: observers attached while the terminal event was
    /// on its way come after the cursor, or in the place of served entries before it. `nil` means every
    /// observer has it, and the signal may terminate.
    @inlinable
    mutating func nextTerminalRecipient(sequence: UInt64, held: inout AnyObject?) -> Unmanaged<AnyObject>? {
        if let next = nextUnservedRecipient(sequence: sequence, held: &held) { return next }
        guard case .terminating = phase else { return nil }
        cursor = 0
        return nextUnservedRecipient(sequence: sequence, held: &held)
    }

    @inlinable
    mutating func nextUnservedRecipient(sequence: UInt64, held: inout AnyObject?) -> Unmanaged<AnyObject>? {
        while cursor < entries.count {
            let entry = entries[cursor]
            cursor &+= 1
            guard entry.isActive && entry.firstSequence <= sequence else { continue }
            entry.isActive = false
            held = entry.handler.take()
            if let held { return Unmanaged.passUnretained(held) }
        }
        return nil
    }

    /// Detaches `entry`, which must be active.
    ///
    /// - Returns: Its handler, which the caller releases after unlocking (or parks, while a callout may
    ///   still run it).
    @inlinable
    mutating func remove(_ entry: ObserverEntry) -> AnyObject? {
        entry.isActive = false
        if entries.last === entry {
            // The most recent observer goes first far more often than any other: no search, no shift.
            entries.removeLast()
            if cursor > entries.count {
                cursor &-= 1
            }
        } else if let index = entries.firstIndex(where: { $0 === entry }) {
            entries.remove(at: index)
            if index < cursor {
                cursor &-= 1
            }
        }
        return entry.handler.take()
    }

    /// Marks the signal terminated and empties the list.
    ///
    /// - Returns: The entries it drops, for the caller to release after unlocking.
    @inlinable
    mutating func terminate() -> ContiguousArray<ObserverEntry> {
        phase = .terminated
        defer { entries = [] }
        return entries
    }

    /// Whether a signal in this state can never be observed again: alive, with no observer and no
    /// output, and, for the signal of a producer run, started and with no interrupter left.
    @inlinable
    var isUnreachable: Bool {
        entries.isEmpty && !hasOutput && !isStarting && !hasInterrupter && isAlive
    }
}
