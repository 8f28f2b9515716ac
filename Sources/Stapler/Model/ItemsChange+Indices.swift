extension ItemsChange {
    /// Where row `index` of the rows before the change is after it.
    ///
    /// `nil` when the row was removed, or when the change does not say (a reload, a clear). `anchor` is
    /// the change's own anchor, if any: the row it names goes where it says.
    func newIndex(of index: Int, anchor: ItemsAnchor?) -> Int? {
        if let anchor, anchor.from == index { return anchor.to }
        switch self {
        case .reloaded, .cleared:
            return nil
        case .appended, .updated:
            return index
        case .inserted(let rows):
            return index < rows.lowerBound ? index : index + rows.count
        case .removed(let rows):
            if index < rows.lowerBound { return index }
            return index >= rows.upperBound ? index - rows.count : nil
        case .difference(let difference):
            return difference.newIndex(of: index)
        }
    }

    /// Which row of the rows before the change row `index` after it was.
    ///
    /// `nil` when the row is new, or when the change does not say (a reload, a clear). `anchor` is the
    /// change's own anchor, if any.
    func oldIndex(of index: Int, anchor: ItemsAnchor?) -> Int? {
        if let anchor, anchor.to == index { return anchor.from }
        switch self {
        case .reloaded, .cleared:
            return nil
        case .updated:
            return index
        case .appended(let rows):
            return index < rows.lowerBound ? index : nil
        case .inserted(let rows):
            if index < rows.lowerBound { return index }
            return index >= rows.upperBound ? index - rows.count : nil
        case .removed(let rows):
            return index < rows.lowerBound ? index : index + rows.count
        case .difference(let difference):
            return difference.oldIndex(of: index)
        }
    }
}

extension ItemsDifference {
    /// The previous snapshot's rows that left their place (removed, or the sources of moves), ascending.
    private var vacated: [Int] { (removals + moves.map(\.from)).sorted() }
    /// The new snapshot's rows that took a new place (inserted, or the destinations of moves), ascending.
    private var filled: [Int] { (insertions + moves.map(\.to)).sorted() }

    /// Where row `index` of the previous snapshot is in the new one; `nil` when it was removed.
    func newIndex(of index: Int) -> Int? {
        if removals.contains(index) { return nil }
        if let move = moves.first(where: { $0.from == index }) { return move.to }
        // Its place once the vacated rows are gone, then pushed down by every row filled at or above it.
        var place = index - vacated.prefix { $0 < index }.count
        for filledRow in filled {
            guard filledRow <= place else { break }
            place += 1
        }
        return place
    }

    /// Which row of the previous snapshot row `index` of the new one was; `nil` when it was inserted.
    func oldIndex(of index: Int) -> Int? {
        if insertions.contains(index) { return nil }
        if let move = moves.first(where: { $0.to == index }) { return move.from }
        var place = index - filled.prefix { $0 < index }.count
        for vacatedRow in vacated {
            guard vacatedRow <= place else { break }
            place += 1
        }
        return place
    }
}
