extension PagingMachine {
    /// A local edit of the shown items, planned against a snapshot of them (``expected``).
    @usableFromInline
    struct Edit {
        @usableFromInline enum Kind {
            case insert(Item, at: Int)
            case remove(at: Int)
            case replace(at: Int, with: Item)
            /// Local rows added at an end of the list (``Paginator/insert(contentsOf:at:)``).
            case insertRows([Item], at: ListEnd)
        }

        @usableFromInline let kind: Kind
        /// The identity of the item the edit brings in, when deduplicating.
        @usableFromInline let identity: ItemIdentity?
        /// The identities of the rows an ``Kind/insertRows(_:at:)`` adds, when deduplicating.
        @usableFromInline let rowIdentities: [ItemIdentity]?
        /// The items the edit was planned against; the edit is applied only if they are still current.
        @usableFromInline let expected: PagedItems<Item>

        @inlinable
        init(_ kind: Kind, identity: ItemIdentity?, rowIdentities: [ItemIdentity]? = nil, expected: PagedItems<Item>) {
            self.kind = kind
            self.identity = identity
            self.rowIdentities = rowIdentities
            self.expected = expected
        }
    }

    /// Applies `edit` if the items are still those it was planned against; `outcome` says what happened,
    /// `nil` when the items changed since (plan it again).
    ///
    /// The edited item's page keeps its keys: a removal never moves the next offset, a page whose rows
    /// were all removed stays a page (and does not end the list), an inserted item joins the page that
    /// holds its index. With deduplication, an inserted or replacing item's identity joins the seen set,
    /// and a removed item's identity stays in it, so a later server copy of either is dropped.
    ///
    /// - Complexity: O(page size + log pages), amortised.
    @inlinable
    mutating func receiveEdit(_ edit: Edit, outcome: inout EditOutcome?) -> Effects {
        var effects = Effects()
        guard list.items.isIdentical(to: edit.expected) else {
            outcome = nil
            return effects
        }
        guard hasList, list.items.pageCount > 0 else {
            outcome = .notLoaded
            return effects
        }
        let items = list.items
        let change: ItemsChange
        switch edit.kind {
        case .insert(let item, let index):
            guard index <= items.count else {
                outcome = .outOfRange
                return effects
            }
            let (page, start, rows) = pageForInsertion(at: index)
            var edited = rows
            edited.insert(item, at: index - start)
            if let identity = edit.identity { list.pageKeys[page].identities?.insert(identity, at: index - start) }
            list.items = items.replacingPage(at: page, with: edited)
            change = .inserted(index..<index + 1)
        case .remove(let index):
            guard index < items.count else {
                outcome = .outOfRange
                return effects
            }
            let (page, rows, start) = items.locate(item: index)
            var edited = rows
            let removed = edited.remove(at: index - start)
            if list.pageKeys[page].identities?.remove(at: index - start) != nil { list.removedByEdits.append(removed) }
            list.items = items.replacingPage(at: page, with: edited)
            change = .removed(index..<index + 1)
        case .replace(let index, let item):
            guard index < items.count else {
                outcome = .outOfRange
                return effects
            }
            let (page, rows, start) = items.locate(item: index)
            var edited = rows
            if let identity = edit.identity, let replaced = list.pageKeys[page].identities?[index - start] {
                list.pageKeys[page].identities?[index - start] = identity
                // The replaced row's identity stays loaded; a saved list carries the row for it.
                if replaced != identity { list.removedByEdits.append(rows[index - start]) }
            }
            edited[index - start] = item
            list.items = items.replacingPage(at: page, with: edited)
            change = .updated(index..<index + 1)
        case .insertRows(let rows, let end):
            guard let added = insertLocalRows(rows, identities: edit.rowIdentities, at: end) else {
                outcome = .alreadyShown
                return effects
            }
            change = .inserted(added)
        }
        if let identity = edit.identity { list.loadedIdentities.insert(identity) }
        effects.itemsChange = change
        effects.previousItemCount = items.count
        outcome = .applied
        publish(&effects)
        checkInvariants()
        return effects
    }

    /// The page an item inserted at `index` joins (the page holding that index, or the last page at the
    /// end), the index of its first item, and its items.
    @inlinable
    func pageForInsertion(at index: Int) -> (page: Int, start: Int, items: ContiguousArray<Item>) {
        let items = list.items
        if index < items.count {
            let (page, rows, start) = items.locate(item: index)
            return (page, start, rows)
        }
        let last = items.pageCount - 1
        let (rows, start) = items.page(at: last)
        return (last, start, rows)
    }
}

extension PagingMachine {
    /// The index of the first shown item whose identity is `identity`, when deduplicating.
    ///
    /// - Complexity: O(items).
    @inlinable
    func index(ofIdentity identity: ItemIdentity) -> Int? {
        var start = 0
        for page in 0..<list.pageKeys.count {
            guard let identities = list.pageKeys[page].identities else { return nil }
            if let offset = identities.firstIndex(of: identity) { return start + offset }
            start += identities.count
        }
        return nil
    }
}
