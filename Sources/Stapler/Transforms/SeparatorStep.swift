/// A separators step: a row between each two neighbouring rows, and at the ends of the list.
extension TransformStep {
    /// The step that puts `separator(before, after)` between neighbours (`nil` at an edge of the list).
    ///
    /// Inlinable, and called from ``ListTransform/separators(_:)``: the stage it makes and its loops are
    /// compiled for `Value` in the caller's module.
    @inlinable
    static func separators<Value: Sendable>(
        _ separator: @escaping @Sendable (Value?, Value?) -> Value?
    ) -> TransformStep {
        TransformStep { input, context in
            // The chain was typed when it was built: the layer before this step holds its rows.
            let stage = SeparatorStage<Value>(
                input: unsafeDowncast(input, to: TransformLayer<Value>.self), separator: separator, context: context)
            return TransformStage(
                output: stage.output,
                run: { changed, topChanged, bottomChanged in
                    stage.run(changed: changed, topChanged: topChanged, bottomChanged: bottomChanged)
                },
                rebuild: { stage.rebuild() },
                insertEmptyChunks: { count, position in stage.output.insertEmptyChunks(count: count, at: position) })
        }
    }
}

/// Runs a separators step on the chunks of its input layer: each chunk gets a separator before each of
/// its rows (the first one between the last row above the chunk and its first row), and the bottom
/// edge's chunk one after the list's last row.
@usableFromInline
final class SeparatorStage<Value: Sendable> {
    @usableFromInline let input: TransformLayer<Value>
    @usableFromInline let output = TransformLayer<Value>()
    @usableFromInline let separator: @Sendable (Value?, Value?) -> Value?
    @usableFromInline let context: TransformContext

    @inlinable
    init(
        input: TransformLayer<Value>, separator: @escaping @Sendable (Value?, Value?) -> Value?,
        context: TransformContext
    ) {
        self.input = input
        self.separator = separator
        self.context = context
    }

    /// Recomputes the output chunks whose input chunks `changed` (ascending), the chunks after them
    /// whose first separator's neighbour changed, and the edges' chunks when an edge changed.
    ///
    /// - Returns: The output chunks it recomputed, ascending.
    @inlinable
    func run(changed: [Int], topChanged: Bool, bottomChanged: Bool) -> [Int] {
        let count = input.chunks.count
        var affected = changed
        for index in changed where index < count - 1 {
            affected.append(firstChunkWithRows(after: index) ?? count - 1)
        }
        if topChanged, let first = firstChunkWithRows(after: -1) { affected.append(first) }
        if bottomChanged || (!changed.isEmpty && context.bottom) { affected.append(count - 1) }
        affected.sort()
        var recomputed: [Int] = []
        recomputed.reserveCapacity(affected.count)
        for index in affected where recomputed.last != index {
            recomputed.append(index)
            let lookup = separatorLookup(output.chunks[index])
            output.replace(
                index,
                with: separators(input.chunks[index], after: lastRow(before: index), index: index, lookup: lookup))
        }
        return recomputed
    }

    /// Recomputes every output chunk, reusing the separators whose neighbours kept their identity.
    @inlinable
    func rebuild() {
        var lookup: [SeparatorNeighbours: TransformRow<Value>] = [:]
        for chunk in output.chunks {
            for row in chunk where row.left != TransformRow<Value>.notSeparator {
                lookup[SeparatorNeighbours(left: row.left, right: row.right)] = row
            }
        }
        var layer = ContiguousArray<TransformChunk<Value>>()
        layer.reserveCapacity(input.chunks.count)
        var last: TransformRow<Value>?
        for (index, chunk) in input.chunks.enumerated() {
            layer.append(separators(chunk, after: last, index: index, lookup: lookup))
            last = chunk.last(where: { $0.value != nil }) ?? last
        }
        output.chunks = layer
    }

    /// The separators of input chunk `index`, `rows`, after `last`, the last row above it.
    @inlinable
    func separators(
        _ rows: TransformChunk<Value>, after last: TransformRow<Value>?, index: Int,
        lookup: [SeparatorNeighbours: TransformRow<Value>]
    ) -> TransformChunk<Value> {
        let edges = SeparatorEdges(
            top: context.top, bottom: context.bottom, isBottomChunk: index == input.chunks.count - 1)
        return separatorRows(
            rows, after: last, edges: edges, round: context.round, nextID: &context.nextID, lookup: lookup, separator)
    }

    /// The separators of `old`, by their neighbours.
    @inlinable
    func separatorLookup(_ old: TransformChunk<Value>) -> [SeparatorNeighbours: TransformRow<Value>] {
        var lookup: [SeparatorNeighbours: TransformRow<Value>] = [:]
        for row in old where row.left != TransformRow<Value>.notSeparator {
            lookup[SeparatorNeighbours(left: row.left, right: row.right)] = row
        }
        return lookup
    }

    /// The index of the first input chunk after `index` that holds a row, if any.
    @inlinable
    func firstChunkWithRows(after index: Int) -> Int? {
        var next = index + 1
        while next < input.chunks.count {
            if input.chunks[next].contains(where: { $0.value != nil }) { return next }
            next += 1
        }
        return nil
    }

    /// The last input row above chunk `index`, if any.
    @inlinable
    func lastRow(before index: Int) -> TransformRow<Value>? {
        var chunk = index - 1
        while chunk >= 0 {
            if let row = input.chunks[chunk].last(where: { $0.value != nil }) { return row }
            chunk -= 1
        }
        return nil
    }
}
