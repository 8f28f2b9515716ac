/// An element step (`map`, `compactMap`, `filter`): each row to one row or none.
@usableFromInline
struct ElementStep<Input: Sendable, Output: Sendable>: TransformStep {
    /// The step over one chunk (see `elementRows`), compiled for these row types.
    @usableFromInline let elements:
        @Sendable (TransformChunk<Input>, _ lookup: [Int: TransformRow<Output>], _ round: Int) -> TransformChunk<Output>

    /// The step that shows `element` of each row, or leaves the row out when it is `nil`.
    @inlinable
    init(_ element: @escaping @Sendable (Input) -> Output?) {
        elements = { rows, lookup, round in elementRows(rows, lookup: lookup, round: round, element) }
    }

    @usableFromInline
    func makeStage(input: any AnyTransformLayer, context: TransformContext) -> (
        stage: any TransformStage, output: any AnyTransformLayer
    ) {
        // The chain was typed when it was built: the layer before this step holds its input rows.
        let stage = ElementStage(input: input as! TransformLayer<Input>, elements: elements, context: context)
        return (stage, stage.output)
    }
}

/// Runs an ``ElementStep`` on the chunks of its input layer.
final class ElementStage<Input: Sendable, Output: Sendable>: TransformStage {
    let input: TransformLayer<Input>
    let output = TransformLayer<Output>()
    let elements: @Sendable (TransformChunk<Input>, [Int: TransformRow<Output>], Int) -> TransformChunk<Output>
    let context: TransformContext

    init(
        input: TransformLayer<Input>,
        elements:
            @escaping @Sendable (TransformChunk<Input>, [Int: TransformRow<Output>], Int) -> TransformChunk<Output>,
        context: TransformContext
    ) {
        self.input = input
        self.elements = elements
        self.context = context
    }

    func run(changed: [Int], topChanged: Bool, bottomChanged: Bool) -> [Int] {
        for index in changed {
            let old = output.chunks[index]
            var lookup: [Int: TransformRow<Output>] = [:]
            if !old.isEmpty {
                lookup.reserveCapacity(old.count)
                for row in old { lookup[row.id] = row }
            }
            output.replace(index, with: elements(input.chunks[index], lookup, context.round))
        }
        return changed
    }

    func rebuild() {
        var lookup: [Int: TransformRow<Output>] = [:]
        for chunk in output.chunks { for row in chunk { lookup[row.id] = row } }
        var layer = ContiguousArray<TransformChunk<Output>>()
        layer.reserveCapacity(input.chunks.count)
        for chunk in input.chunks { layer.append(elements(chunk, lookup, context.round)) }
        output.chunks = layer
    }
}
