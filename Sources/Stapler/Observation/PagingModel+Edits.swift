#if canImport(Observation)
    import Observation

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    extension PagingModel {
        /// Inserts `item` at position `index` of ``items``, wherever the row there is now; see
        /// ``Paginator/insert(_:at:)``.
        ///
        /// The index is read against ``items`` (which may lag the paginator by a main-actor hop), never
        /// against a newer list the screen has not shown.
        ///
        /// - Parameters:
        ///   - item: The item to insert.
        ///   - index: A position in `0...items.count` (a negative index traps, naming `index`).
        /// - Returns: ``EditOutcome/applied``, ``EditOutcome/rowGone`` when the row the position follows
        ///   from is gone, or why else nothing changed.
        @discardableResult
        public func insert(_ item: Item, at index: Int) -> EditOutcome {
            Paginator<Item, Key, Query, Metadata, Failure>.checkIndex(index)
            return paginator.engine.edit(at: index, insertion: true, seen: (shown.serial, items)) { _, position in
                .edit(.insert(item, at: position))
            }
        }

        /// Removes row `index` of ``items``, wherever it is now; see ``Paginator/remove(at:)``.
        ///
        /// - Parameter index: A position in `0..<items.count` (a negative index traps, naming `index`).
        /// - Returns: ``EditOutcome/applied``, ``EditOutcome/rowGone`` when that row is gone, or why else
        ///   nothing changed.
        @discardableResult
        public func remove(at index: Int) -> EditOutcome {
            Paginator<Item, Key, Query, Metadata, Failure>.checkIndex(index)
            return paginator.engine.edit(at: index, insertion: false, seen: (shown.serial, items)) { _, row in
                .edit(.remove(at: row))
            }
        }

        /// Replaces row `index` of ``items`` with `item`, in place, wherever it is now; see
        /// ``Paginator/replace(at:with:)``.
        ///
        /// - Parameters:
        ///   - index: A position in `0..<items.count` (a negative index traps, naming `index`).
        ///   - item: The new version of the row.
        /// - Returns: ``EditOutcome/applied``, ``EditOutcome/rowGone`` when that row is gone, or why else
        ///   nothing changed.
        @discardableResult
        public func replace(at index: Int, with item: Item) -> EditOutcome {
            Paginator<Item, Key, Query, Metadata, Failure>.checkIndex(index)
            return paginator.engine.edit(at: index, insertion: false, seen: (shown.serial, items)) { _, row in
                .edit(.replace(at: row, with: item))
            }
        }

        /// Changes row `index` of ``items`` with `change`, in place, wherever it is now; see
        /// ``Paginator/modify(at:_:)``.
        ///
        /// - Parameters:
        ///   - index: A position in `0..<items.count` (a negative index traps, naming `index`).
        ///   - change: Mutates the item; it runs with no lock held, again if the list changed meanwhile.
        /// - Returns: ``EditOutcome/applied``, ``EditOutcome/rowGone`` when that row is gone, or why else
        ///   nothing changed.
        @discardableResult
        public func modify(at index: Int, _ change: (inout Item) -> Void) -> EditOutcome {
            Paginator<Item, Key, Query, Metadata, Failure>.checkIndex(index)
            return paginator.engine.edit(at: index, insertion: false, seen: (shown.serial, items)) { items, row in
                var item = items[row]
                change(&item)
                return .edit(.replace(at: row, with: item))
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    extension PagingModel {
        /// Adds `rows` at `end` of the list (a live message); see ``Paginator/insert(contentsOf:at:)``.
        ///
        /// - Parameters:
        ///   - rows: The rows to add, in list order.
        ///   - end: The end to add them at.
        /// - Returns: What the edit did.
        @discardableResult
        public func insert(contentsOf rows: [Item], at end: ListEnd) -> EditOutcome {
            paginator.insert(contentsOf: rows, at: end)
        }

        /// Asks the page at `end` again and merges it by identity; see ``Paginator/catchUp(at:maxPages:)``.
        ///
        /// - Parameters:
        ///   - end: The end to catch up.
        ///   - maxPages: How many pages it may load (at least 1).
        /// - Returns: ``LoadOutcome/started``, or why nothing started.
        @discardableResult
        public func catchUp(at end: ListEnd = .bottom, maxPages: Int = 3) -> LoadOutcome<Failure> {
            paginator.catchUp(at: end, maxPages: maxPages)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    extension PagingModel where Item: Identifiable {
        /// Removes the first loaded item whose `id` is `id`; see ``Paginator/remove(id:)``.
        ///
        /// - Parameter id: The identity of the item.
        /// - Returns: ``EditOutcome/applied``, or ``EditOutcome/notFound``.
        @discardableResult
        public func remove(id: Item.ID) -> EditOutcome {
            paginator.remove(id: id)
        }

        /// Replaces the first loaded item whose `id` is `id` with `item`; see ``Paginator/replace(id:with:)``.
        ///
        /// - Parameters:
        ///   - id: The identity of the item to replace.
        ///   - item: Its new version.
        /// - Returns: ``EditOutcome/applied``, or ``EditOutcome/notFound``.
        @discardableResult
        public func replace(id: Item.ID, with item: Item) -> EditOutcome {
            paginator.replace(id: id, with: item)
        }

        /// Changes the first loaded item whose `id` is `id`; see ``Paginator/modify(id:_:)``.
        ///
        /// - Parameters:
        ///   - id: The identity of the item.
        ///   - change: Mutates the item.
        /// - Returns: ``EditOutcome/applied``, or ``EditOutcome/notFound``.
        @discardableResult
        public func modify(id: Item.ID, _ change: (inout Item) -> Void) -> EditOutcome {
            paginator.modify(id: id, change)
        }
    }
#endif
