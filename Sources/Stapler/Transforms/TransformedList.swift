import Reactive

/// A read-only, transformed view of a paginator, with its own snapshots and its own incremental
/// changes, in transformed indices.
///
/// Made by ``Paginator/transformed(by:)``. It keeps its paginator alive; the paginator does not keep it.
///
/// Guarantees (clauses 9.1–9.8 of <doc:StateMachine> name their tests):
/// - **Incremental.** Every change the paginator publishes (pages appended, prepended or dropped, local
///   edits, keyed refresh differences, clears) becomes at most one ``TransformedUpdate`` whose change,
///   applied to the previous snapshot, yields the new one; the new snapshot always equals the transform
///   applied to the paginator's items from scratch.
/// - **Each row transformed once.** A page's rows are transformed when it arrives, an edited row when it
///   changes, a separator when both its neighbours are there; no closure runs under a lock.
/// - **In step with the paginator.** It delivers on the paginator's delivering thread or scheduler, in
///   order with it: an observer of the paginator that reads ``items`` reads the snapshot of the
///   publication it hears, and an observer of the transformed list never hears a snapshot older than
///   the paginator's latest delivered one. Observers may call back into the paginator.
public final class TransformedList<Output: Sendable>: Sendable {
    /// The transformed rows, changing with every publication of the paginator that changes them.
    public let items: Property<TransformedItems<Output>>
    /// Each change of ``items`` with the snapshots before and after it, in transformed indices.
    ///
    /// It completes when the transformed list is released.
    public let updates: Signal<TransformedUpdate<Output>, Never>
    /// The transformer.
    let core: TransformedListCore<Output>
    /// The list's published value: a projection of its paginator's.
    let state: Property<TransformedPublication<Output>>
    /// Ends when the list is released, which completes ``updates``.
    private let lifetimeToken: Lifetime.Token
    /// Preloads around a row of the paginator (and keeps the paginator alive).
    let preloadSource: @Sendable (Int) -> Void
    /// The paginator, as a test driver waits on it.
    package let probe: any QuiescenceProbe

    init(
        core: TransformedListCore<Output>, state: Property<TransformedPublication<Output>>,
        items: Property<TransformedItems<Output>>, updates: Signal<TransformedUpdate<Output>, Never>,
        lifetimeToken: Lifetime.Token, preload: @escaping @Sendable (Int) -> Void, probe: any QuiescenceProbe
    ) {
        self.core = core
        self.state = state
        self.items = items
        self.updates = updates
        self.lifetimeToken = lifetimeToken
        preloadSource = preload
        self.probe = probe
    }

    /// Returns when the paginator this list is transformed from is settled (see
    /// ``Paginator/settled()``): the list has then received and delivered every publication, including
    /// the pages it asked for because earlier ones filtered to nothing.
    nonisolated(nonsending) public func settled() async {
        await probe.settled()
    }

    /// Tells the paginator that transformed row `index` is displayed, so it loads the next or previous
    /// page when that row is near an edge.
    ///
    /// The index is mapped to the paginator's row it comes from (for a separator, the row after it), and
    /// the edge test is made on the paginator's rows, never on the transformed count (with placeholders, on
    /// that row's slot).
    ///
    /// - Parameter index: A row of the latest transformed snapshot.
    public func preload(index: Int) {
        let snapshot = items.value
        guard index >= 0, index < snapshot.count, let row = snapshot.sourceIndex(of: index) else { return }
        preloadSource(row)
    }
}

/// What a transformed list publishes: its rows, the change that made them, and the paginator's rows they
/// come from.
///
/// ``TransformedList/items`` and ``TransformedList/updates`` are projections of it. It is the list's entry in
/// its paginator's published value, and a class, so that the property, the signals and the paginator pass
/// it on by one reference.
@usableFromInline
final class TransformedPublication<Output: Sendable>: Sendable {
    /// The transformed rows.
    @usableFromInline let items: TransformedItems<Output>
    /// The change that made ``items``; `nil` for the rows the list was made with.
    @usableFromInline let update: TransformedUpdate<Output>?
    /// Where the paginator's rows that ``items`` come from start: their leading count and their list.
    @usableFromInline let sourceLeadingCount: Int
    @usableFromInline let sourceListSerial: UInt64
    /// How many placeholders were shown before the paginator's rows that ``items`` come from.
    @usableFromInline let sourcePlaceholdersBefore: Int

    @inlinable
    init<Item, Metadata, Failure>(
        items: TransformedItems<Output>, update: TransformedUpdate<Output>?,
        source: PagingSnapshot<Item, Metadata, Failure>
    ) {
        self.items = items
        self.update = update
        sourceLeadingCount = source.leadingCount
        sourceListSerial = source.listSerial
        sourcePlaceholdersBefore = source.placeholdersBefore
    }
}

/// What a transformed list's engine hook works on: the transformer and its counters, which only the
/// paginator's deliverer uses.
@usableFromInline
final class TransformedListCore<Output: Sendable>: Sendable {
    @usableFromInline let work: DelivererOwned<TransformWork<Output>>

    @inlinable
    init(transformer: ListTransformer<Output>) {
        work = DelivererOwned(TransformWork(transformer: transformer))
    }
}

/// A transformed list's own state, used by its paginator's deliverer only.
@usableFromInline
struct TransformWork<Output: Sendable> {
    @usableFromInline let transformer: ListTransformer<Output>
    /// How many pages in a row, at the bottom and at the top, added no transformed row.
    @usableFromInline var emptyPages = (append: 0, prepend: 0)

    @inlinable
    init(transformer: ListTransformer<Output>) {
        self.transformer = transformer
    }
}
