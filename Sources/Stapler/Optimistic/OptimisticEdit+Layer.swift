// How an optimistic edit becomes a layer: functions of the rows, by identity, which the deliverer replays
// over every list shown while the mutation runs, and which fold the server's answer into its rows.

extension OptimisticEdit {
    /// Where an inserted row goes in any list: next to a row followed by identity, or at an end; where
    /// that row is gone, at the index the edit was made at (or the end).
    @usableFromInline
    enum Place: Sendable {
        case top
        case bottom
        case before(Item.ID, fallback: Int)
        case after(Item.ID, fallback: Int)

        /// The place `position` names in `shown`, the rows the caller was given.
        @usableFromInline
        init(_ position: Position, in shown: PagedItems<Item>) {
            switch position {
            case .top: self = .top
            case .bottom: self = .bottom
            case .index(let index):
                guard index >= 0 else {
                    fatalError("OptimisticEdit: an insertion's index must not be negative, got index \(index)")
                }
                if index < shown.count {
                    self = index == 0 ? .top : .before(shown[index].id, fallback: index)
                } else {
                    self = shown.isEmpty ? .top : .after(shown[shown.count - 1].id, fallback: shown.count)
                }
            }
        }

        /// The index in `rows` this place names.
        @usableFromInline
        func index(in rows: PagedItems<Item>) -> Int {
            switch self {
            case .top: return 0
            case .bottom: return rows.count
            case .before(let id, let fallback):
                return rows.firstIndex { $0.id == id } ?? min(fallback, rows.count)
            case .after(let id, let fallback):
                return rows.firstIndex { $0.id == id }.map { $0 + 1 } ?? min(fallback, rows.count)
            }
        }
    }

    /// The layer of this edit, given its serial; insertion places are read against `shown`.
    ///
    /// Reads identities (user code): call it with no lock held. The function it returns only builds the
    /// layer.
    @usableFromInline
    func layer(shown: PagedItems<Item>) -> @Sendable (UInt64) -> OverlayLayer<Item> {
        let id = id
        let target = ItemIdentity(id)
        let kind = kind
        let apply: @Sendable (PagedItems<Item>) -> PagedItems<Item>
        var place: Place?
        switch operation {
        case .modify(let change):
            apply = { rows in
                guard let index = rows.firstIndex(where: { $0.id == id }) else { return rows }
                var row = rows[index]
                change(&row)
                return rows.replacing(at: index, with: row)
            }
        case .replace(let item):
            apply = { rows in
                guard let index = rows.firstIndex(where: { $0.id == id }) else { return rows }
                return rows.replacing(at: index, with: item)
            }
        case .remove:
            apply = { rows in
                guard let index = rows.firstIndex(where: { $0.id == id }) else { return rows }
                return rows.removing(at: index)
            }
        case .insert(let item, let position):
            let resolved = Place(position, in: shown)
            place = resolved
            apply = { rows in
                guard !rows.contains(where: { $0.id == id || clientIdentity(of: $0) == target }) else { return rows }
                return rows.inserting(item, at: resolved.index(in: rows))
            }
        }
        let insertion = place
        let fold: @Sendable (PagedItems<Item>, Item?) -> OverlayFold<Item> = { base, answer in
            let renamed = answer.flatMap { $0.id == id ? nil : (new: ItemIdentity($0.id), old: target) }
            if let insertion {
                guard let answer, !base.contains(where: { $0.id == answer.id || clientIdentity(of: $0) == target })
                else { return OverlayFold() }
                return OverlayFold(edit: .insert(answer, at: insertion.index(in: base)), renamed: renamed)
            }
            guard let index = base.firstIndex(where: { $0.id == id }) else { return OverlayFold() }
            guard let answer else { return OverlayFold(edit: .remove(at: index)) }
            // An answer older than the server's row shown (a refresh brought a newer one) is not folded in.
            guard !isOlder(answer, than: base[index]) else { return OverlayFold() }
            return OverlayFold(edit: .replace(at: index, with: answer), renamed: renamed)
        }
        return { serial in
            OverlayLayer(edit: PendingEdit(serial: serial, kind: kind, target: target), apply: apply, fold: fold)
        }
    }
}

extension PagingEngine where Item: Identifiable, Item.ID: Sendable {
    /// Shows `edit` as a new layer, read against the observers' latest rows, in one update.
    ///
    /// - Returns: The layer's serial.
    @usableFromInline
    func startOptimistic(_ edit: OptimisticEdit<Item>) -> UInt64 {
        let make = edit.layer(shown: edit.seen ?? publication.value.current.contents.snapshot.items)
        return addLayer(make) { old, new, renamed in
            // A server copy carrying a temporary identity matches the row shown with it.
            ItemsDifference(from: old, to: new) { (item: Item) -> ItemIdentity in
                let identity = clientIdentity(of: item) ?? ItemIdentity(item.id)
                return renamed[identity] ?? identity
            }
        }
    }
}
