extension PagingMachine {
    /// Whether the list is shown with placeholders now: they are on, and the top page's position and
    /// the total are known.
    @inlinable
    var showsPlaceholders: Bool {
        configuration.placeholders && hasList && list.pageKeys.first?.itemsBefore != nil && list.total != nil
    }

    /// Loads the page that holds `slot` directly, as a new generation that keeps the opening key.
    ///
    /// The loaded rows stay until it lands, and a newer jump (or refresh) supersedes it silently. A jump
    /// to the page already loading does nothing.
    @inlinable
    mutating func jump(toSlot slot: Int, _ effects: inout Effects) {
        guard let jump = configuration.jump else { return }
        let key = jump.key(slot, configuration.pageSize)
        if let load = refreshLane.phase.load, load.request.key == key { return }
        refresh(.restart, query: nil, startingAt: key, &effects)
    }

    /// The largest position or total placeholders are shown for (2^40 rows).
    @inlinable
    static var slotLimit: Int { 1 << 40 }

    /// The most slots a change lists one by one beside other changes; past it, the change is a reload.
    @inlinable
    static var listedSlotLimit: Int { 10_000 }

    /// Where the list sits in the whole list and how many slots it fills (see ``PagedSlots``).
    @usableFromInline
    struct SlotShape {
        @usableFromInline let before: Int
        @usableFromInline let count: Int
        @usableFromInline let after: Int

        @inlinable
        init(before: Int, count: Int, after: Int) {
            self.before = before
            self.count = count
            self.after = after
        }

        @inlinable
        var slots: Int { before + count + after }
    }

    /// Brings the placeholder counts up to date and works out how the slots changed in this transition.
    ///
    /// With placeholders on, the top page's ``Page/itemsBefore`` and the total place the loaded rows:
    /// that many placeholders before them, and up to the total after them (never a negative count: a
    /// total below the loaded rows leaves none).
    @inlinable
    mutating func updatePlaceholders(_ effects: inout Effects) {
        let old = effects.previousPlaceholders ?? (snapshot.placeholdersBefore, snapshot.placeholdersAfter)
        effects.previousPlaceholders = old
        let placeholders = configuration.placeholders
        if !placeholders, old.before == 0, old.after == 0, snapshot.placeholdersBefore == 0,
            snapshot.placeholdersAfter == 0
        {
            // No placeholders before or after: the slots are the items, and change as they do.
            effects.slotsChange = effects.itemsChange
            return
        }
        var (before, after) = (0, 0)
        // A position or total past `slotLimit` (from a server or a saved list) shows no placeholders: the
        // counts could overflow, and no list is that long.
        if placeholders, hasList, let top = list.pageKeys.first?.itemsBefore, let total = snapshot.total,
            top <= Self.slotLimit, total <= Self.slotLimit
        {
            before = top
            after = max(0, total - top - snapshot.items.count)
        }
        snapshot.placeholdersBefore = before
        snapshot.placeholdersAfter = after
        let oldCount = effects.itemsChange == nil ? snapshot.items.count : effects.previousItemCount
        effects.slotsChange = Self.slotsChange(
            effects.itemsChange, appliesPage: effects.appliesPage || effects.dropsPages,
            from: SlotShape(before: old.before, count: oldCount, after: old.after),
            to: SlotShape(before: before, count: snapshot.items.count, after: after))
        // The slots before a change of the placeholders alone hold the same items.
        if effects.slotsChange != nil, effects.itemsChange == nil { effects.previousItemCount = snapshot.items.count }
    }

    /// Whether rows kept through a change of the loaded rows sit in other slots after it.
    ///
    /// They do when the placeholders before them changed by other than the rows added or removed at the
    /// top (a page above them with fewer rows than its position leaves room for). Local edits never count.
    @inlinable
    static func movesLoadedRows(
        _ itemsChange: ItemsChange?, appliesPage: Bool, from old: SlotShape, to new: SlotShape
    ) -> Bool {
        func leadingRun(_ indices: [Int]) -> Int {
            var run = 0
            for index in indices.sorted() where index == run { run += 1 }
            return run
        }
        // The rows added at the top, less the rows removed there: the first row kept moves by as many.
        var top = 0
        switch itemsChange {
        case .reloaded?, .cleared?:
            return false
        case .inserted(let rows)?:
            guard appliesPage else { return false }
            if rows.lowerBound == 0 { top = rows.count }
        case .removed(let rows)?:
            guard appliesPage else { return false }
            if rows.lowerBound == 0 { top = -rows.count }
        case .difference(let difference)?:
            if !difference.moves.isEmpty { return true }
            top = leadingRun(difference.insertions) - leadingRun(difference.removals)
        case .appended?, .updated?, nil:
            break
        }
        return new.before + top != old.before
    }

    /// The change of the slots, given the change of the items between two shapes.
    ///
    /// Slots keep their positions, so a page that fills placeholders (or a drop that leaves them)
    /// updates those slots, and a total that moves inserts or removes slots at the end. A local edit
    /// shifts the rows after it. A change that moves loaded rows to other slots is a reload.
    @inlinable
    static func slotsChange(
        _ itemsChange: ItemsChange?, appliesPage: Bool, from old: SlotShape, to new: SlotShape
    ) -> ItemsChange? {
        if old.before == 0, old.after == 0, new.before == 0, new.after == 0 { return itemsChange }
        if old.slots == 0 { return new.slots == 0 ? nil : .reloaded }
        if new.slots == 0 { return .cleared }
        // Loaded rows that move to other slots (below a page with fewer rows than its gap: short, empty
        // or deduplicated) cannot be listed as updates of the slots the page fills: a reload says it.
        if movesLoadedRows(itemsChange, appliesPage: appliesPage, from: old, to: new) { return .reloaded }
        var changed: [Range<Int>] = []
        switch itemsChange {
        case nil: break
        case .reloaded?, .cleared?:
            changed = [old.before..<old.before + old.count, new.before..<new.before + new.count]
        case .appended(let rows)?, .updated(let rows)?:
            changed = [new.before + rows.lowerBound..<new.before + rows.upperBound]
        case .inserted(let rows)? where appliesPage:
            changed = [new.before + rows.lowerBound..<new.before + rows.upperBound]
        case .removed(let rows)? where appliesPage:
            changed = [old.before + rows.lowerBound..<old.before + rows.upperBound]
        case .difference(let difference)?:
            changed = difference.removals.map { old.before + $0..<old.before + $0 + 1 }
            changed += (difference.insertions + difference.updates).map { new.before + $0..<new.before + $0 + 1 }
        case .inserted(let rows)?:
            // A local insertion: the rows after it move down, and a trailing placeholder makes room.
            let slot = new.before + rows.lowerBound
            if new.slots == old.slots {
                return .difference(ItemsDifference(removals: [old.slots - 1], insertions: [slot]))
            }
            return .inserted(slot..<slot + rows.count)
        case .removed(let rows)?:
            let slot = old.before + rows.lowerBound
            if new.slots == old.slots {
                return .difference(ItemsDifference(removals: [slot], insertions: [new.slots - 1]))
            }
            return .removed(slot..<slot + rows.count)
        }
        let kept = min(old.slots, new.slots)
        let updates = Set(changed.flatMap { $0.clamped(to: 0..<kept) }).sorted()
        let shrinks = new.slots < old.slots
        let grows = new.slots > old.slots
        if updates.isEmpty {
            if shrinks { return .removed(new.slots..<old.slots) }
            return grows ? .inserted(old.slots..<new.slots) : nil
        }
        if !shrinks, !grows, updates.count == updates[updates.count - 1] - updates[0] + 1 {
            return .updated(updates[0]..<updates[0] + updates.count)
        }
        // Updates with a moving end list the end's slots one by one: a huge move is a reload instead.
        if abs(new.slots - old.slots) > Self.listedSlotLimit { return .reloaded }
        return .difference(
            ItemsDifference(
                removals: shrinks ? Array(new.slots..<old.slots) : [],
                insertions: grows ? Array(old.slots..<new.slots) : [], updates: updates))
    }
}
