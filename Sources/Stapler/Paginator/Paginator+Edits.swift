// Local edits of the loaded items.
//
// An edit applies at once, atomically, as one update with an exact change, even while loads are in
// flight: a page that lands later joins the edited list. An index names a row of the snapshot the
// observers were last given (what the screen shows), which pages that landed since may have moved: the
// edit applies to that row where it is now. Edits are local: they change the loaded items, never the
// keys, the ends, or what the next request asks for; a refresh that commits later replaces the list with
// the server's (re-apply the optimistic edits you still want), as TanStack Query's `setQueryData` is
// overwritten by a refetch.

extension Paginator {
    /// Inserts `item` at position `index` of the items the observers were last given.
    ///
    /// The position is before the row that was at `index` there (after the last row for `items.count`),
    /// wherever that row is now. The item joins the page that holds its position (the last page at the
    /// end). With deduplication, its identity counts as loaded: a later server copy of it is dropped.
    ///
    /// - Parameters:
    ///   - item: The item to insert.
    ///   - index: A position in `0...items.count` of the observers' latest snapshot (a negative index
    ///     traps, naming `index`).
    /// - Returns: ``EditOutcome/applied``, ``EditOutcome/rowGone`` when the row the position follows from
    ///   is gone, or why else nothing changed.
    /// - Complexity: O(page size + log pages + publications not yet delivered), amortised.
    @inlinable
    @discardableResult
    public func insert(_ item: Item, at index: Int) -> EditOutcome {
        Self.checkIndex(index)
        return engine.edit(at: index, insertion: true) { _, position in .edit(.insert(item, at: position)) }
    }

    /// Removes row `index` of the items the observers were last given, wherever it is now.
    ///
    /// Its page keeps its keys (the next offset does not move), and a page left with no rows stays a
    /// page. With deduplication, the removed identity stays loaded: a server copy of it never comes
    /// back in this generation.
    ///
    /// - Parameter index: A position in `0..<items.count` of the observers' latest snapshot (a negative
    ///   index traps, naming `index`).
    /// - Returns: ``EditOutcome/applied``, ``EditOutcome/rowGone`` when that row is gone, or why else
    ///   nothing changed.
    @inlinable
    @discardableResult
    public func remove(at index: Int) -> EditOutcome {
        Self.checkIndex(index)
        return engine.edit(at: index, insertion: false) { _, row in .edit(.remove(at: row)) }
    }

    /// Replaces row `index` of the items the observers were last given with `item`, in place, wherever
    /// that row is now.
    ///
    /// - Parameters:
    ///   - index: A position in `0..<items.count` of the observers' latest snapshot (a negative index
    ///     traps, naming `index`).
    ///   - item: The new version of the row.
    /// - Returns: ``EditOutcome/applied``, ``EditOutcome/rowGone`` when that row is gone, or why else
    ///   nothing changed.
    @inlinable
    @discardableResult
    public func replace(at index: Int, with item: Item) -> EditOutcome {
        Self.checkIndex(index)
        return engine.edit(at: index, insertion: false) { _, row in .edit(.replace(at: row, with: item)) }
    }

    /// Changes row `index` of the items the observers were last given with `change`, in place, wherever
    /// that row is now.
    ///
    /// `change` runs on the calling thread with no lock held, on a copy of the row as it is now; if the
    /// list changed meanwhile, it runs again on the row's newer version.
    ///
    /// - Parameters:
    ///   - index: A position in `0..<items.count` of the observers' latest snapshot (a negative index
    ///     traps, naming `index`).
    ///   - change: Mutates the item.
    /// - Returns: ``EditOutcome/applied``, ``EditOutcome/rowGone`` when that row is gone, or why else
    ///   nothing changed.
    @inlinable
    @discardableResult
    public func modify(at index: Int, _ change: (inout Item) -> Void) -> EditOutcome {
        Self.checkIndex(index)
        return engine.edit(at: index, insertion: false) { items, row in
            var item = items[row]
            change(&item)
            return .edit(.replace(at: row, with: item))
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
