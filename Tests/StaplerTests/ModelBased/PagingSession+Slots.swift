import Reactive
import TestSupport

@testable import Stapler

extension PagingSession {
    /// What the checks read from a paginator's slots: the placeholders around the loaded rows, and
    /// every slot read in turn (`nil` for a placeholder).
    struct Slots: Equatable, CustomStringConvertible {
        var before = 0
        var after = 0
        var contents: [Int?] = []

        init() {}

        init(_ slots: PagedSlots<Int>) {
            before = slots.placeholdersBefore
            after = slots.placeholdersAfter
            contents = slots.indices.map { slots[$0].item }
        }

        var description: String {
            "\(before) + \(contents.count - before - after) + \(after) slots"
        }
    }

    /// The slots hold the rows shown, in order, between as many placeholders as the top page's position
    /// and the total leave (so as many slots as the total), and never an item that is not shown; with a
    /// bound, no more pages with rows than it allows (the one it may keep over it included).
    func checkSlots(_ slots: Slots, _ reference: PagingReference) -> String? {
        // Empty pages hold no rows: one that ended an edge may stay beside the pages the bound keeps.
        if configuration.bounded, reference.pageRows.filter({ $0 > 0 }).count > PagingReference.maxPages + 1 {
            return "\(reference.pageRows) rows in the pages kept under a bound of \(PagingReference.maxPages)"
        }
        guard configuration.placeholders else { return nil }
        let (before, after) = reference.placeholders
        guard slots.before == before, slots.after == after else {
            return "slots \(slots), expected \(before) + \(reference.items.count) + \(after)"
        }
        let loaded = slots.contents.dropFirst(before).dropLast(after)
        guard slots.contents.count == before + reference.items.count + after,
            slots.contents.prefix(before).allSatisfy({ $0 == nil }),
            slots.contents.suffix(after).allSatisfy({ $0 == nil }),
            loaded.elementsEqual(reference.items.map(Optional.some))
        else { return "slots \(slots.contents), expected the rows \(reference.items) after \(before) placeholders" }
        if reference.showsPlaceholders, let total = reference.total, total >= before + reference.items.count,
            slots.contents.count != total
        {
            return "\(slots.contents.count) slots for a total of \(total)"
        }
        return nil
    }
}

extension PagingSession {
    /// Follows `paginator`'s slot updates on a copy of its slots: each update starts from the slots the
    /// one before left, and its change turns them into the new slots (so no slot keeps a stale item).
    func followSlots<Key, Metadata>(of paginator: Paginator<Int, Key, Int, Metadata, ServerError>) {
        let copy = Locked(Slots(paginator.slots.value).contents)
        paginator.slotUpdates.observeValues { [observedFailures] update in
            let previous = Slots(update.previous).contents
            let new = Slots(update.slots).contents
            let failure = copy.withLock { copy -> String? in
                defer { copy = new }
                if previous != copy { return "slot update \(update.change) from \(previous), the slots were \(copy)" }
                let applied = Self.apply(update.change, to: copy, giving: new)
                return applied == new
                    ? nil : "slot update \(update.change) gives \(applied.map { "\($0)" } ?? "a trap"), not \(new)"
            }
            if let failure { observedFailures.append(failure) }
        }
    }

    /// `rows` changed by `change`, taking new rows from `new`; `nil` for a change that does not fit them.
    static func apply(_ change: ItemsChange, to rows: [Int?], giving new: [Int?]) -> [Int?]? {
        func fits(_ range: Range<Int>, _ count: Int) -> Bool { range.lowerBound >= 0 && range.upperBound <= count }
        var rows = rows
        switch change {
        case .reloaded: return new
        case .cleared: return []
        case .appended(let range):
            guard range.lowerBound == rows.count, fits(range, new.count) else { return nil }
            rows += new[range]
        case .inserted(let range):
            guard range.lowerBound <= rows.count, fits(range, new.count) else { return nil }
            rows.insert(contentsOf: new[range], at: range.lowerBound)
        case .removed(let range):
            guard fits(range, rows.count) else { return nil }
            rows.removeSubrange(range)
        case .updated(let range):
            guard fits(range, rows.count), fits(range, new.count) else { return nil }
            rows.replaceSubrange(range, with: new[range])
        case .difference(let difference):
            let gone = Set(difference.removals).union(difference.moves.map(\.from))
            guard gone.allSatisfy({ $0 >= 0 && $0 < rows.count }) else { return nil }
            rows = rows.enumerated().filter { !gone.contains($0.offset) }.map(\.element)
            for index in (difference.insertions + difference.moves.map(\.to)).sorted() {
                guard index >= 0, index <= rows.count, index < new.count else { return nil }
                rows.insert(new[index], at: index)
            }
            for index in difference.updates {
                guard index >= 0, index < rows.count, index < new.count else { return nil }
                rows[index] = new[index]
            }
        }
        return rows
    }
}
