extension PagingMachine {
    /// Applies the page of the load with `ticket`, if that load is still current in its direction.
    @inlinable
    mutating func receiveLoaded(
        ticket: UInt64, page: Page<Item, Key, Metadata>, identities: [AnyHashable]?
    ) -> Effects {
        var effects = Effects()
        guard let direction = direction(of: ticket), let load = self[slot: direction].load else { return effects }
        // The request is disposed once its page is in (a page commits on the request's first value).
        effects.cancel(ticket, of: direction)
        self[slot: direction] = .idle
        if let total = page.total, total < 0 {
            fail(direction, with: .invalidTotal(total), request: load.request, &effects)
        } else {
            switch direction {
            case .refresh: applyRefreshPage(page, identities: identities, of: load, &effects)
            case .append: applyEdgePage(page, identities: identities, at: .append, of: load, &effects)
            case .prepend: applyEdgePage(page, identities: identities, at: .prepend, of: load, &effects)
            }
        }
        effects.end(ticket, of: direction, as: self[slot: direction].error == nil ? .loaded : .failed)
        checkInvariants()
        return effects
    }

    /// Records the failure of the load with `ticket`, if that load is still current in its direction.
    @inlinable
    mutating func receiveFailed(ticket: UInt64, error: PagingError<Failure>) -> Effects {
        var effects = Effects()
        guard let direction = direction(of: ticket), let load = self[slot: direction].load else { return effects }
        effects.cancel(ticket, of: direction)
        fail(direction, with: error, request: load.request, &effects)
        effects.end(ticket, of: direction, as: .failed)
        checkInvariants()
        return effects
    }

    /// Leaves `direction` failed with `error`.
    ///
    /// `retry()` asks for `request` again. Nothing loaded is lost.
    @inlinable
    mutating func fail(
        _ direction: PageDirection, with error: PagingError<Failure>, request: Request, _ effects: inout Effects
    ) {
        self[slot: direction] = .failed(error, request)
        if direction == .refresh {
            effects.firstPageOutcomes.append((snapshot.generation, .failed(error)))
        } else {
            effects.laterPageError = error
        }
        publish(&effects)
    }

    /// Adds a page at the top or the bottom of the list.
    ///
    /// An empty page, or one with no key further on, ends that edge; a key further on that this list
    /// already used is ``PagingError/repeatedKey`` (following it would loop).
    @inlinable
    mutating func applyEdgePage(
        _ page: Page<Item, Key, Metadata>, identities: [AnyHashable]?, at edge: PageDirection, of load: Load,
        _ effects: inout Effects
    ) {
        let onward = edge == .append ? page.nextKey : page.previousKey
        let ends = page.items.isEmpty || onward == nil
        if !ends, let onward, onward == load.request.key || usedKeys.contains(onward) {
            return fail(edge, with: .repeatedKey, request: load.request, &effects)
        }
        let kept = keep(page.items, identities: identities)
        let previous = snapshot.items
        let keys = PageKeys(key: load.request.key, previousKey: page.previousKey, nextKey: page.nextKey)
        if edge == .append {
            snapshot.items = previous.appending(kept)
            pageKeys.append(keys)
            bottomKey = ends ? nil : onward
            if !kept.isEmpty { effects.itemsChange = .appended(previous.count..<snapshot.items.count) }
        } else {
            snapshot.items = previous.prepending(kept)
            pageKeys.prepend(keys)
            topKey = ends ? nil : onward
            snapshot.leadingCount += kept.count
            if !kept.isEmpty { effects.itemsChange = .inserted(0..<kept.count) }
        }
        if let onward, !ends { usedKeys.insert(onward) }
        if effects.itemsChange != nil { effects.previousItems = previous }
        snapshot.total = page.total
        snapshot.metadata = page.metadata
        effects.appliesPage = true
        publish(&effects)
    }

    /// The items of a page minus those already loaded (and repeats within the page), when deduplicating.
    @inlinable
    mutating func keep(_ items: [Item], identities: [AnyHashable]?) -> ContiguousArray<Item> {
        guard let identities else { return ContiguousArray(items) }
        var kept = ContiguousArray<Item>()
        kept.reserveCapacity(items.count)
        for (item, identity) in zip(items, identities) where loadedIdentities.insert(identity).inserted {
            kept.append(item)
        }
        return kept
    }
}
