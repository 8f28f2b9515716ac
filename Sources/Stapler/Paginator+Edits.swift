// Local edits of the loaded items.
//
// An edit applies at once to the newest snapshot, atomically, as one update with an exact change, even
// while loads are in flight: a page that lands later joins the edited list. Edits are local: they change
// the loaded items, never the keys, the ends, or what the next request asks for; a refresh that commits
// later replaces the list with the server's (re-apply the optimistic edits you still want), as
// TanStack Query's `setQueryData` is overwritten by a refetch.

extension Paginator {
    /// Inserts `item` at `index` of the current items.
    ///
    /// The item joins the page that holds `index` (the last page at the end). With deduplication, its
    /// identity counts as loaded: a later server copy of it is dropped.
    ///
    /// - Parameters:
    ///   - item: The item to insert.
    ///   - index: A position in `0...items.count` (a negative index traps, naming `index`).
    /// - Returns: ``EditOutcome/applied``, or why nothing changed.
    /// - Complexity: O(page size + log pages), amortised.
    @inlinable
    @discardableResult
    public func insert(_ item: Item, at index: Int) -> EditOutcome {
        Self.checkIndex(index)
        return engine.edit { _ in .edit(.insert(item, at: index)) }
    }

    /// Removes the item at `index` of the current items.
    ///
    /// Its page keeps its keys (the next offset does not move), and a page left with no rows stays a
    /// page. With deduplication, the removed identity stays loaded: a server copy of it never comes
    /// back in this generation.
    ///
    /// - Parameter index: A position in `0..<items.count` (a negative index traps, naming `index`).
    /// - Returns: ``EditOutcome/applied``, or why nothing changed.
    @inlinable
    @discardableResult
    public func remove(at index: Int) -> EditOutcome {
        Self.checkIndex(index)
        return engine.edit { _ in .edit(.remove(at: index)) }
    }

    /// Replaces the item at `index` of the current items with `item`, in place.
    ///
    /// - Parameters:
    ///   - index: A position in `0..<items.count` (a negative index traps, naming `index`).
    ///   - item: The new version of the row.
    /// - Returns: ``EditOutcome/applied``, or why nothing changed.
    @inlinable
    @discardableResult
    public func replace(at index: Int, with item: Item) -> EditOutcome {
        Self.checkIndex(index)
        return engine.edit { _ in .edit(.replace(at: index, with: item)) }
    }

    /// Changes the item at `index` of the current items with `change`, in place.
    ///
    /// `change` runs on the calling thread with no lock held, on a copy of the item; if the list changed
    /// meanwhile, it runs again on the new item at `index`.
    ///
    /// - Parameters:
    ///   - index: A position in `0..<items.count` (a negative index traps, naming `index`).
    ///   - change: Mutates the item.
    /// - Returns: ``EditOutcome/applied``, or why nothing changed.
    @inlinable
    @discardableResult
    public func modify(at index: Int, _ change: (inout Item) -> Void) -> EditOutcome {
        Self.checkIndex(index)
        return engine.edit { items in
            guard index < items.count else { return .done(.outOfRange) }
            var item = items[index]
            change(&item)
            return .edit(.replace(at: index, with: item))
        }
    }

    /// Traps when `index` is negative: no list ever has such a row.
    @inlinable
    static func checkIndex(_ index: Int) {
        guard index >= 0 else {
            fatalError("Paginator: an edit's index must not be negative, got index \(index)")
        }
    }
}

extension Paginator where Item: Identifiable {
    /// Removes the first loaded item whose `id` is `id`, wherever it moved.
    ///
    /// - Parameter id: The identity of the item.
    /// - Returns: ``EditOutcome/applied``, or ``EditOutcome/notFound``.
    /// - Complexity: O(items) to find it, then as ``remove(at:)``.
    @inlinable
    @discardableResult
    public func remove(id: Item.ID) -> EditOutcome {
        engine.edit { items in
            guard let index = items.firstIndex(where: { $0.id == id }) else { return .done(.notFound) }
            return .edit(.remove(at: index))
        }
    }

    /// Replaces the first loaded item whose `id` is `id` with `item`, in place.
    ///
    /// - Parameters:
    ///   - id: The identity of the item to replace.
    ///   - item: Its new version (its identity may differ; with deduplication both stay loaded).
    /// - Returns: ``EditOutcome/applied``, or ``EditOutcome/notFound``.
    @inlinable
    @discardableResult
    public func replace(id: Item.ID, with item: Item) -> EditOutcome {
        engine.edit { items in
            guard let index = items.firstIndex(where: { $0.id == id }) else { return .done(.notFound) }
            return .edit(.replace(at: index, with: item))
        }
    }

    /// Changes the first loaded item whose `id` is `id` with `change`, in place.
    ///
    /// - Parameters:
    ///   - id: The identity of the item.
    ///   - change: Mutates the item; it runs with no lock held, again if the list changed meanwhile.
    /// - Returns: ``EditOutcome/applied``, or ``EditOutcome/notFound``.
    @inlinable
    @discardableResult
    public func modify(id: Item.ID, _ change: (inout Item) -> Void) -> EditOutcome {
        engine.edit { items in
            guard let index = items.firstIndex(where: { $0.id == id }) else { return .done(.notFound) }
            var item = items[index]
            change(&item)
            return .edit(.replace(at: index, with: item))
        }
    }
}
