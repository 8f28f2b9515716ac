/// A separators step: a row between each two neighbouring rows, and at the ends of the list.
@usableFromInline
struct SeparatorStep<Value: Sendable>: TransformStep {
    /// The separators of one chunk (see `separatorRows`), compiled for this row type.
    @usableFromInline let separators:
        @Sendable (
            TransformChunk<Value>, _ last: TransformRow<Value>?, SeparatorEdges, _ round: Int, _ nextID: inout Int,
            _ lookup: [SeparatorNeighbours: TransformRow<Value>]
        ) -> TransformChunk<Value>

    /// The step that puts `separator(before, after)` between neighbours (`nil` at an edge of the list).
    @inlinable
    init(_ separator: @escaping @Sendable (Value?, Value?) -> Value?) {
        separators = { rows, last, edges, round, nextID, lookup in
            separatorRows(rows, after: last, edges: edges, round: round, nextID: &nextID, lookup: lookup, separator)
        }
    }

    @usableFromInline
    func makeStage(input: any AnyTransformLayer, context: TransformContext) -> (
        stage: any TransformStage, output: any AnyTransformLayer
    ) {
        // The chain was typed when it was built: the layer before this step holds its rows.
        let stage = SeparatorStage(input: input as! TransformLayer<Value>, step: self, context: context)
        return (stage, stage.output)
    }
}

/// Runs a ``SeparatorStep`` on the chunks of its input layer: each chunk gets a separator before each of
/// its rows (the first one between the last row above the chunk and its first row), and the bottom
/// edge's chunk one after the list's last row.
final class SeparatorStage<Value: Sendable>: TransformStage {
    let input: TransformLayer<Value>
    let output = TransformLayer<Value>()
    let step: SeparatorStep<Value>
    let context: TransformContext

    init(input: TransformLayer<Value>, step: SeparatorStep<Value>, context: TransformContext) {
        self.input = input
        self.step = step
        self.context = context
    }

    func run(changed: [Int], topChanged: Bool, bottomChanged: Bool) -> [Int] {
        let chunks = input.chunks
        var affected = Set(changed)
        for index in changed where index < chunks.count - 1 {
            affected.insert(firstChunkWithRows(after: index) ?? chunks.count - 1)
        }
        if topChanged, let first = firstChunkWithRows(after: -1) { affected.insert(first) }
        if bottomChanged || (!changed.isEmpty && context.bottom) { affected.insert(chunks.count - 1) }
        let recomputed = affected.sorted()
        for index in recomputed {
            let lookup = separatorLookup(output.chunks[index])
            output.replace(
                index, with: separators(chunks[index], after: lastRow(before: index), index: index, lookup: lookup))
        }
        return recomputed
    }

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
    private func separators(
        _ rows: TransformChunk<Value>, after last: TransformRow<Value>?, index: Int,
        lookup: [SeparatorNeighbours: TransformRow<Value>]
    ) -> TransformChunk<Value> {
        let edges = SeparatorEdges(
            top: context.top, bottom: context.bottom, isBottomChunk: index == input.chunks.count - 1)
        return step.separators(rows, last, edges, context.round, &context.nextID, lookup)
    }

    /// The separators of `old`, by their neighbours.
    private func separatorLookup(_ old: TransformChunk<Value>) -> [SeparatorNeighbours: TransformRow<Value>] {
        var lookup: [SeparatorNeighbours: TransformRow<Value>] = [:]
        for row in old where row.left != TransformRow<Value>.notSeparator {
            lookup[SeparatorNeighbours(left: row.left, right: row.right)] = row
        }
        return lookup
    }

    /// The index of the first input chunk after `index` that holds a row, if any.
    private func firstChunkWithRows(after index: Int) -> Int? {
        var next = index + 1
        while next < input.chunks.count {
            if input.chunks[next].contains(where: { $0.value != nil }) { return next }
            next += 1
        }
        return nil
    }

    /// The last input row above chunk `index`, if any.
    private func lastRow(before index: Int) -> TransformRow<Value>? {
        var chunk = index - 1
        while chunk >= 0 {
            if let row = input.chunks[chunk].last(where: { $0.value != nil }) { return row }
            chunk -= 1
        }
        return nil
    }
}
