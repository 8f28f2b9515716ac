/// How the chunks of a transform's layers changed shape: source pages added at the bottom (at
/// `position`, `count` of them), at the top, or none.
@usableFromInline
enum TransformStructure {
    case same
    case appended(position: Int, count: Int)
    case prepended(count: Int)

    /// The index before the change of the chunk at `index` after it, or `nil` for an added chunk.
    @inlinable
    func oldIndex(of index: Int) -> Int? {
        switch self {
        case .same: index
        case .appended(let position, let count):
            index < position ? index : index >= position + count ? index - count : nil
        case .prepended(let count): index < 1 ? index : index > count ? index - count : nil
        }
    }
}

/// What the source layer's update leaves to do.
@usableFromInline
enum SourcePlan {
    /// Run the steps on these chunks (ascending) of the new shape.
    case chunks(TransformStructure, changed: [Int])
    /// Run the steps on every chunk; `reload` when no row kept its identity.
    case rebuild(reload: Bool)
}

extension TransformPipeline {
    /// Updates layer 0 to the publication's items and says what the steps must recompute.
    ///
    /// Pages added at either end, and an insertion, a removal or an update within pages that stay, are
    /// applied to their chunks only. Anything else maps the identities of the whole list through the
    /// change and rebuilds the chunks.
    @inlinable
    func updateSource(_ input: TransformInput<Item>) -> SourcePlan {
        let layer = sourceLayer
        let (previous, items) = (input.previous, input.items)
        let (old, new) = (previous.pageCount, items.pageCount)
        let tracked = source
        if input.change == nil && items.isIdentical(to: tracked) { return .chunks(.same, changed: []) }
        guard layer.chunks.count == old + 2, tracked.isIdentical(to: previous) else {
            return rebuildSource(items, in: layer, mapping: nil)
        }
        guard let change = input.change else {
            return items.isIdentical(to: previous)
                ? .chunks(.same, changed: []) : rebuildSource(items, in: layer, mapping: nil)
        }
        switch change {
        case .appended(let rows) where new > old && rows.lowerBound == previous.count:
            guard (old..<new).reduce(0, { $0 + items.page(at: $1).items.count }) == rows.count else { break }
            let chunks = (old..<new).map { freshChunk(items.page(at: $0).items, in: layer) }
            insertChunks(chunks, into: layer, at: old + 1)
            return .chunks(.appended(position: old + 1, count: new - old), changed: Array(old + 1...new))
        case .inserted(let rows) where new > old && rows.lowerBound == 0:
            let added = new - old
            guard (0..<added).reduce(0, { $0 + items.page(at: $1).items.count }) == rows.count else { break }
            insertChunks((0..<added).map { freshChunk(items.page(at: $0).items, in: layer) }, into: layer, at: 1)
            return .chunks(.prepended(count: added), changed: Array(1...added))
        case .inserted(let rows) where new == old && !rows.isEmpty:
            let (page, pageItems, start) = items.locate(item: rows.lowerBound)
            var chunk = layer.chunks[page + 1]
            guard rows.upperBound <= start + pageItems.count, chunk.count + rows.count == pageItems.count else { break }
            let fresh = rows.map {
                TransformRow(pageItems[$0 - start], id: context.makeID(), offset: 0, round: context.round)
            }
            chunk.insert(contentsOf: fresh, at: rows.lowerBound - start)
            layer.replace(page + 1, with: renumbered(chunk))
            return .chunks(.same, changed: [page + 1])
        case .removed(let rows) where new == old && !rows.isEmpty:
            let (page, pageItems, start) = previous.locate(item: rows.lowerBound)
            guard rows.upperBound <= start + pageItems.count else { break }
            var chunk = layer.chunks[page + 1]
            chunk.removeSubrange(rows.lowerBound - start..<rows.upperBound - start)
            layer.replace(page + 1, with: renumbered(chunk))
            return .chunks(.same, changed: [page + 1])
        case .updated(let rows) where new == old && !rows.isEmpty:
            var changed: [Int] = []
            var index = rows.lowerBound
            while index < rows.upperBound {
                let (page, pageItems, start) = items.locate(item: index)
                let end = min(rows.upperBound, start + pageItems.count)
                var chunk = layer.chunks[page + 1]
                for row in index..<end {
                    chunk[row - start].value = pageItems[row - start]
                    chunk[row - start].round = context.round
                }
                layer.replace(page + 1, with: chunk)
                changed.append(page + 1)
                index = end
            }
            return .chunks(.same, changed: changed)
        default:
            break
        }
        return rebuildSource(items, in: layer, mapping: change)
    }

    /// Rebuilds layer 0 for `items`, keeping the identity of each row `change` says was kept.
    @inlinable
    func rebuildSource(
        _ items: PagedItems<Item>, in source: TransformLayer<Item>, mapping change: ItemsChange?
    ) -> SourcePlan {
        let round = context.round
        var oldIDs: [Int] = []
        for chunk in source.chunks { oldIDs.append(contentsOf: chunk.lazy.map(\.id)) }
        var ids: [Int?]? = nil
        var changed = Set<Int>()
        switch change {
        case .appended(let rows)?:
            ids = oldIDs + Array(repeating: nil, count: rows.count)
        case .inserted(let rows)?:
            var mapped: [Int?] = oldIDs
            mapped.insert(contentsOf: repeatElement(nil, count: rows.count), at: min(rows.lowerBound, mapped.count))
            ids = mapped
        case .removed(let rows)? where rows.upperBound <= oldIDs.count:
            var mapped: [Int?] = oldIDs
            mapped.removeSubrange(rows)
            ids = mapped
        case .updated(let rows)?:
            ids = oldIDs
            changed = Set(rows)
        case .difference(let difference)?:
            ids = mapping(oldIDs, through: difference, newCount: items.count)
            changed = Set(difference.updates)
        default:
            ids = nil
        }
        if let mapped = ids, mapped.count != items.count { ids = nil }
        var layer = ContiguousArray<TransformChunk<Item>>([[]])
        var index = 0
        for page in 0..<items.pageCount {
            var chunk = TransformChunk<Item>()
            for (offset, item) in items.page(at: page).items.enumerated() {
                if let id = ids?[index] ?? nil {
                    let kept = changed.contains(index) ? round : 0
                    chunk.append(TransformRow(item, id: id, offset: offset, round: kept))
                } else {
                    chunk.append(TransformRow(item, id: context.makeID(), offset: offset, round: round))
                }
                index += 1
            }
            layer.append(chunk)
        }
        layer.append([])
        if stages.isEmpty { sourceBeforeRebuild = source.chunks }
        source.chunks = layer
        return .rebuild(reload: ids == nil)
    }

    /// The identities of a keyed difference's new rows: kept and moved rows keep theirs, inserted rows get
    /// none; `nil` if the difference does not fit the counts.
    @inlinable
    func mapping(_ oldIDs: [Int], through difference: ItemsDifference, newCount: Int) -> [Int?]? {
        var ids = [Int?](repeating: nil, count: newCount)
        let removed = Set(difference.removals).union(difference.moves.map(\.from))
        let inserted = Set(difference.insertions).union(difference.moves.map(\.to))
        let keptOld = oldIDs.indices.filter { !removed.contains($0) }
        let keptNew = (0..<newCount).filter { !inserted.contains($0) }
        guard keptOld.count == keptNew.count else { return nil }
        for (from, to) in zip(keptOld, keptNew) { ids[to] = oldIDs[from] }
        for move in difference.moves {
            guard move.from < oldIDs.count, move.to < newCount else { return nil }
            ids[move.to] = oldIDs[move.from]
        }
        return ids
    }

    /// A chunk of new source rows.
    @inlinable
    func freshChunk(_ items: ContiguousArray<Item>, in layer: TransformLayer<Item>) -> TransformChunk<Item> {
        sourceRows(items, round: context.round, nextID: &context.nextID)
    }

    /// `chunk` with each row's offset set to its position.
    @inlinable
    func renumbered(_ chunk: TransformChunk<Item>) -> TransformChunk<Item> {
        var chunk = chunk
        for index in chunk.indices { chunk[index].offset = index }
        return chunk
    }

    /// Inserts `chunks` into layer 0 (`source`) at `position`, and as many empty chunks into every other
    /// layer.
    @inlinable
    func insertChunks(_ chunks: [TransformChunk<Item>], into source: TransformLayer<Item>, at position: Int) {
        source.chunks.insert(contentsOf: chunks, at: position)
        for stage in stages { stage.insertEmptyChunks(chunks.count, position) }
        // Without steps the source layer is the last one: its new chunks are recorded as having shown none.
        if stages.isEmpty, source.replaced != nil {
            for index in position..<position + chunks.count { source.replaced?.append((index, [])) }
        }
    }
}
