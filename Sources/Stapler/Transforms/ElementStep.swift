/// An element step (`map`, `compactMap`, `filter`, fused when consecutive): each row to one row or none.
struct ElementStep<Input: Sendable, Output: Sendable>: FusableStep {
    /// The row of an input row, or `nil` to leave it out.
    let element: @Sendable (Input) -> Output?

    func makeStage(input: any AnyTransformLayer, context: TransformContext) -> (
        stage: any TransformStage, output: any AnyTransformLayer
    ) {
        // The chain was typed when it was built: the layer before this step holds its input rows.
        let stage = ElementStage(input: input as! TransformLayer<Input>, element: element, context: context)
        return (stage, stage.output)
    }

    func followed<New: Sendable>(by next: @escaping @Sendable (Output) -> New?) -> any TransformStep {
        let element = element
        return ElementStep<Input, New> { element($0).flatMap(next) }
    }
}

/// A step whose rows `Output` another element step can be fused into, so consecutive element steps run as one.
protocol FusableStep<Output>: TransformStep {
    associatedtype Output: Sendable

    /// This step followed by `next`, as one step.
    func followed<New: Sendable>(by next: @escaping @Sendable (Output) -> New?) -> any TransformStep
}

/// Runs an ``ElementStep`` on the chunks of its input layer.
final class ElementStage<Input: Sendable, Output: Sendable>: TransformStage {
    let input: TransformLayer<Input>
    let output = TransformLayer<Output>()
    let element: @Sendable (Input) -> Output?
    let context: TransformContext

    init(input: TransformLayer<Input>, element: @escaping @Sendable (Input) -> Output?, context: TransformContext) {
        self.input = input
        self.element = element
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
            output.replace(index, with: elements(input.chunks[index], lookup: lookup))
        }
        return changed
    }

    func rebuild() {
        var lookup: [Int: TransformRow<Output>] = [:]
        for chunk in output.chunks { for row in chunk { lookup[row.id] = row } }
        var layer = ContiguousArray<TransformChunk<Output>>()
        layer.reserveCapacity(input.chunks.count)
        for chunk in input.chunks { layer.append(elements(chunk, lookup: lookup)) }
        output.chunks = layer
    }

    /// The step over one chunk; the rows of `lookup` (by id) are reused for inputs that did not change.
    private func elements(_ rows: TransformChunk<Input>, lookup: [Int: TransformRow<Output>]) -> TransformChunk<Output>
    {
        let round = context.round
        var made = TransformChunk<Output>()
        made.reserveCapacity(rows.count)
        for row in rows {
            guard let value = row.value else { continue }
            if row.round != round {
                // Unchanged input: its row as before, or none if the step left it out before.
                if var kept = lookup[row.id] {
                    kept.offset = row.offset
                    made.append(kept)
                }
                continue
            }
            if let mapped = element(value) {
                made.append(TransformRow(mapped, id: row.id, offset: row.offset, round: round))
            }
        }
        return made
    }
}
