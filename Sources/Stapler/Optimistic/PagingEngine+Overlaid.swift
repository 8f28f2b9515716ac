extension PagingEngine.Deliverer {
    /// `publication` as the observers see it: its rows with the optimistic layers it carries replayed over
    /// them, and the change from `shownBefore` (the rows delivered before) worked out by identity.
    ///
    /// It runs in the deliverer, with no lock held: the layers and identities are user code. A change that
    /// leaves the rows as they were keeps `shownBefore` (the same storage), so nothing reports the items
    /// changed. With placeholders, the slots change as a whole when the rows shown do.
    @usableFromInline
    static func overlaid(
        _ publication: PagingEngine.Publication, shownBefore: PagedItems<Item>, by identities: ItemIdentities<Item>?
    ) -> PagingEngine.Publication {
        let contents = publication.contents
        let overlay = contents.overlay
        guard let difference = overlay.difference else { return publication }
        var shown = overlay.apply(to: contents.snapshot.items)
        let change: ItemsChange?
        switch (shownBefore.isEmpty, shown.isEmpty) {
        case (true, true):
            change = contents.itemsChange
        case (true, false):
            change =
                contents.itemsChange == .reloaded
                ? .reloaded
                : ItemsChange(
                    simplifying: difference(shownBefore, shown, overlay.renamed), oldCount: 0, newCount: shown.count)
        case (false, true):
            change = .cleared
        case (false, false):
            change = ItemsChange(
                simplifying: difference(shownBefore, shown, overlay.renamed), oldCount: shownBefore.count,
                newCount: shown.count)
            if change == nil { shown = shownBefore }
        }
        var snapshot = contents.snapshot
        snapshot.items = shown
        let placeholders = snapshot.placeholdersBefore + snapshot.placeholdersAfter > 0
        let slotsChange =
            change != nil && (placeholders || contents.slotsChange != nil) ? .reloaded : contents.slotsChange
        let anchor = contents.anchorRow.flatMap { row in identities.map { $0.anchor(row, shownBefore, shown) } }
        return PagingEngine.Publication(
            contents.with(snapshot: snapshot, itemsChange: change, anchor: anchor, slotsChange: slotsChange),
            serial: publication.serial)
    }
}

extension PagingEngine.Deliverer {
    /// `publication`, whose rows are those of the publication before it, showing the copy of them that
    /// was delivered (`delivered`'s), if that is another copy: the rows an optimistic layer's settlement
    /// left equal to the server's.
    @usableFromInline
    static func keepingDelivered(
        _ publication: PagingEngine.Publication, _ delivered: PagingEngine.Publication
    ) -> PagingEngine.Publication {
        let rows = delivered.contents.snapshot.items
        guard !rows.isIdentical(to: publication.contents.snapshot.items) else { return publication }
        var snapshot = publication.contents.snapshot
        snapshot.items = rows
        let contents = publication.contents
        return PagingEngine.Publication(
            contents.with(
                snapshot: snapshot, itemsChange: contents.itemsChange, anchor: contents.anchor,
                slotsChange: contents.slotsChange),
            serial: publication.serial)
    }
}
