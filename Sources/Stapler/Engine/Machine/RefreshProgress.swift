extension PagingMachine {
    /// A page a refresh loaded and has not committed yet, with the key it was requested with.
    @usableFromInline
    struct FreshPage {
        @usableFromInline let key: Key
        @usableFromInline let page: Page<Item, Key, Metadata>
        @usableFromInline let identities: [ItemIdentity]?

        @inlinable
        init(key: Key, page: Page<Item, Key, Metadata>, identities: [ItemIdentity]?) {
            self.key = key
            self.page = page
            self.identities = identities
        }
    }

    /// The pages a refresh of several pages has loaded so far, one request at a time, and what it
    /// still wants; nothing is shown until it commits them all in one update.
    @usableFromInline
    struct RefreshProgress {
        @usableFromInline enum Goal {
            /// As many pages as were shown, downwards from the top page.
            /// Every shown page: `below` pages from the opening page down (itself included), then `above`
            /// pages up from it.
            case reloadAll(above: Int, below: Int)
            /// At least `rows` rows around the anchor page (row `anchor` of the list shown before).
            case around(rows: Int, anchor: Int)
            /// The page at `end`, then pages next to it toward the rows shown until one meets them, at
            /// most `pages` in all, merged by identity.
            case firstPage(end: ListEnd, pages: Int)
            /// The first `count` pages down from the first page's key (pages loaded up front).
            case initialPages(Int)
        }

        @usableFromInline let goal: Goal
        /// Pages above the first one, nearest first.
        @usableFromInline var above: [FreshPage] = []
        /// The first page, then the pages below it.
        @usableFromInline var below: [FreshPage] = []
        /// Every key requested so far (a key further on among them would loop).
        @usableFromInline var usedKeys: Set<Key> = []
        /// How many rows the server sent so far.
        @usableFromInline var rows = 0
        /// Whether the latest page was loaded above.
        @usableFromInline var wentUp = false

        @inlinable
        init(goal: Goal) {
            self.goal = goal
        }

        /// The pages in list order.
        @inlinable
        var pages: [FreshPage] { above.reversed() + below }

        /// Adds a fresh page, above the first page when `up`.
        @inlinable
        mutating func add(_ fresh: FreshPage, up: Bool) {
            if up { above.append(fresh) } else { below.append(fresh) }
            usedKeys.insert(fresh.key)
            rows += fresh.page.items.count
            wentUp = up
        }

        /// The key of the page above the topmost fresh page, unless the top was reached.
        @inlinable
        var keyAbove: Key? {
            guard let top = above.last ?? below.first, !top.page.items.isEmpty else { return nil }
            return top.page.previousKey.flatMap { usedKeys.contains($0) ? nil : $0 }
        }

        /// The key of the page below the bottom fresh page, unless the bottom was reached.
        @inlinable
        var keyBelow: Key? {
            guard let bottom = below.last, !bottom.page.items.isEmpty else { return nil }
            return bottom.page.nextKey.flatMap { usedKeys.contains($0) ? nil : $0 }
        }

        /// The next page to load, `true` for above, or `nil` when the refresh has what it wants.
        @inlinable
        var nextLoad: (key: Key, up: Bool)? {
            switch goal {
            case .reloadAll(let pagesAbove, let pagesBelow):
                if below.count < pagesBelow, let key = keyBelow { return (key, false) }
                if above.count < pagesAbove, let key = keyAbove { return (key, true) }
                return nil
            case .around(let wanted, _):
                guard rows < wanted else { return nil }
                let (up, down) = (keyAbove, keyBelow)
                if wentUp, let down { return (down, false) }
                if let up { return (up, true) }
                if let down { return (down, false) }
                return nil
            case .initialPages(let count):
                if below.count < count, let key = keyBelow { return (key, false) }
                return nil
            case .firstPage:
                // Decided against the rows shown (``PagingMachine/followOnKey(_:at:after:maxPages:)``).
                return nil
            }
        }
    }
}
