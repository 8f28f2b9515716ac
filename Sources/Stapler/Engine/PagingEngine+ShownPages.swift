import Reactive

/// What a source that reads the shown list again needs to know of it, read in one transition.
struct ShownListShape<Item: Sendable, Key: Hashable & Sendable>: Sendable {
    /// Whether a list is shown (and no refresh replaces it now).
    let isShown: Bool
    /// The rows shown.
    let items: PagedItems<Item>
    /// Whether the top can page no further: its key is gone and no page a memory bound dropped is left.
    let topEnded: Bool
    /// Whether the bottom can page no further.
    let bottomEnded: Bool
    /// Whether a memory bound dropped pages at either end: their keys would reload rows as they were
    /// placed when they were read, so a replacement of the shown pages forgets them (see
    /// ``PagingEngine/replaceShownPages(_:ending:over:if:)``).
    let hasDroppedPages: Bool
    /// The loads in flight at the top and at the bottom: ticket and request.
    let edgeLoads: [(direction: PageDirection, ticket: UInt64, key: Key)]
    /// What changes when rows join or leave the list: a replacement is applied only over the same shape.
    let token: Token

    /// The list's generation, list serial, row count and edge keys.
    struct Token: Hashable, Sendable {
        let generation: UInt64
        let listSerial: UInt64
        let count: Int
        let top: Key?
        let bottom: Key?
    }
}

extension PagingEngine {
    /// The shape of the shown list now.
    func shownListShape() -> ShownListShape<Item, Key> {
        state.withLock { state in
            let machine = state.machine
            let list = machine.list
            var loads: [(direction: PageDirection, ticket: UInt64, key: Key)] = []
            for edge in [PageDirection.prepend, .append] {
                if let load = machine[phase: edge].load { loads.append((edge, load.ticket, load.request.key)) }
            }
            return ShownListShape(
                isShown: machine.hasList && machine.refreshLane.phase.load == nil, items: list.items,
                topEnded: list.top.key == nil && list.top.dropped.isEmpty,
                bottomEnded: list.bottom.key == nil && list.bottom.dropped.isEmpty,
                hasDroppedPages: !list.top.dropped.isEmpty || !list.bottom.dropped.isEmpty, edgeLoads: loads,
                token: Self.token(machine))
        }
    }

    /// The shape token of `machine`'s list.
    static func token(_ machine: Machine) -> ShownListShape<Item, Key>.Token {
        ShownListShape<Item, Key>
            .Token(
                generation: machine.snapshot.generation, listSerial: machine.snapshot.listSerial,
                count: machine.list.items.count, top: machine.list.top.key, bottom: machine.list.bottom.key)
    }

    /// Applies `page`, the answer of the load with `ticket`, if `admits` (called under the state lock, in
    /// the transition that applies the page) returns `true`; otherwise the load stays in flight, and
    /// nothing is applied or published.
    ///
    /// - Returns: Whether the page was admitted (a superseded load's page is admitted, and dropped).
    func receive(_ page: Page<Item, Key, Metadata>, from ticket: UInt64, if admits: () -> Bool) -> Bool {
        let pageIdentities = identities.map { $0.erasedIdentities(page.items) }
        var admitted = false
        send { machine in
            guard machine.direction(of: ticket) != nil else {
                admitted = true
                return Machine.Effects()
            }
            guard admits() else { return Machine.Effects() }
            admitted = true
            return machine.receiveLoaded(ticket: ticket, page: page, identities: pageIdentities)
        }
        return admitted
    }

    /// Replaces the shown list's rows with `pages` (each with the key it is loaded with), and ends the
    /// loads of `ending` as loaded, in one transition, if the list still has the shape `token` describes
    /// and `admits` (called under the state lock) returns `true`.
    ///
    /// With `pages` `nil` (the rows read equal those shown) nothing is replaced, ended or published;
    /// `admits` is still asked, under the same conditions.
    ///
    /// - Returns: Whether the list had that shape and `admits` returned `true`.
    func replaceShownPages(
        _ pages: [(key: Key, page: Page<Item, Key, Metadata>)]?, ending tickets: [UInt64],
        over token: ShownListShape<Item, Key>.Token, if admits: () -> Bool
    ) -> Bool {
        let fresh = pages?.map { key, page in
            Machine.FreshPage(key: key, page: page, identities: identities.map { $0.erasedIdentities(page.items) })
        }
        var applied = false
        send { machine in
            guard Self.token(machine) == token, machine.hasList, machine.refreshLane.phase.load == nil, admits()
            else { return Machine.Effects() }
            applied = true
            guard let fresh else { return Machine.Effects() }
            return machine.receiveShownPages(fresh, ending: tickets)
        }
        return applied
    }

    /// Fails the load with `ticket` with `error`, if it is still in flight.
    func fail(_ ticket: UInt64, with error: PagingError<Failure>) {
        send { $0.receiveFailed(ticket: ticket, error: error) }
    }
}
