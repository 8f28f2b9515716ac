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
    /// bound, no more pages than it allows (the one it may keep over it included).
    func checkSlots(_ slots: Slots, _ reference: PagingReference) -> String? {
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
        if configuration.bounded, reference.pageKeys.count > PagingReference.maxPages + 1 {
            return "\(reference.pageKeys.count) pages kept under a bound of \(PagingReference.maxPages)"
        }
        return nil
    }
}
