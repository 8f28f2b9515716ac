/// An element step (`map`, `compactMap`, `filter`): each row to one row or none.
extension TransformStep {
    /// The step that shows `element` of each row, or leaves the row out when it is `nil`.
    ///
    /// Inlinable, and called from the inlinable operators of ``ListTransform``: the stage it makes and its
    /// loops are compiled for `Input` and `Output` in the caller's module.
    @inlinable
    static func element<Input: Sendable, Output: Sendable>(
        _ element: @escaping @Sendable (Input) -> Output?
    ) -> TransformStep {
        TransformStep { input, context in
            // The chain was typed when it was built: the layer before this step holds its input rows.
            let stage = ElementStage<Input, Output>(
                input: unsafeDowncast(input, to: TransformLayer<Input>.self), element: element, context: context)
            return TransformStage(
                output: stage.output,
                run: { changed, _, _ in stage.run(changed: changed) },
                rebuild: { stage.rebuild() },
                insertEmptyChunks: { count, position in stage.output.insertEmptyChunks(count: count, at: position) })
        }
    }
}

/// Runs an element step on the chunks of its input layer.
@usableFromInline
final class ElementStage<Input: Sendable, Output: Sendable> {
    @usableFromInline let input: TransformLayer<Input>
    @usableFromInline let output = TransformLayer<Output>()
    @usableFromInline let element: @Sendable (Input) -> Output?
    @usableFromInline let context: TransformContext

    @inlinable
    init(input: TransformLayer<Input>, element: @escaping @Sendable (Input) -> Output?, context: TransformContext) {
        self.input = input
        self.element = element
        self.context = context
    }

    /// Recomputes the output chunks whose input chunks `changed`; returns them.
    @inlinable
    func run(changed: [Int]) -> [Int] {
        for index in changed {
            var lookup: [Int: TransformRow<Output>] = [:]
            let old = output.chunks[index]
            if !old.isEmpty {
                lookup.reserveCapacity(old.count)
                for row in old { lookup[row.id] = row }
            }
            output.replace(index, with: elementRows(input.chunks[index], lookup: lookup, round: context.round, element))
        }
        return changed
    }

    /// Recomputes every output chunk, reusing the rows whose inputs kept their identity.
    @inlinable
    func rebuild() {
        var lookup: [Int: TransformRow<Output>] = [:]
        for chunk in output.chunks { for row in chunk { lookup[row.id] = row } }
        var layer = ContiguousArray<TransformChunk<Output>>()
        layer.reserveCapacity(input.chunks.count)
        for chunk in input.chunks { layer.append(elementRows(chunk, lookup: lookup, round: context.round, element)) }
        output.chunks = layer
    }
}
