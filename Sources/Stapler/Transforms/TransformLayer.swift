/// One row of a transform's layer, with its value typed by the layer.
@usableFromInline
struct TransformRow<Value: Sendable>: Sendable {
    /// The row's identity: a source row keeps its id through edits and refreshes, the steps' rows keep
    /// the id of the row they come from, and a separator keeps its id while its neighbours stay.
    @usableFromInline var id: Int
    /// For a separator, the ids of the rows before and after it (`-1` at an edge of the list);
    /// ``TransformRow/notSeparator`` for other rows.
    @usableFromInline var left: Int
    @usableFromInline var right: Int
    /// The round in which `value` was computed.
    @usableFromInline var round: Int
    /// The position in its source page of the row this one comes from.
    @usableFromInline var offset: Int
    /// The value; `nil` for a separator that returned none (kept so it is not asked again).
    @usableFromInline var value: Value?

    @inlinable static var notSeparator: Int { -2 }

    /// A row that is not a separator.
    @inlinable
    init(_ value: Value?, id: Int, offset: Int, round: Int) {
        self.init(
            id: id, left: TransformRow.notSeparator, right: TransformRow.notSeparator, round: round, offset: offset,
            value: value)
    }

    @inlinable
    init(id: Int, left: Int, right: Int, round: Int, offset: Int, value: Value?) {
        self.id = id
        self.left = left
        self.right = right
        self.round = round
        self.offset = offset
        self.value = value
    }
}

/// The rows of one source page (or edge) in one layer.
@usableFromInline
typealias TransformChunk<Value: Sendable> = ContiguousArray<TransformRow<Value>>

/// A layer of a transformed list whatever its row type: what the transformer does to every layer alike.
@usableFromInline
protocol AnyTransformLayer: AnyObject {
    /// Inserts `count` empty chunks at `position`.
    func insertEmptyChunks(count: Int, at position: Int)
}

/// The rows one step of a transform made (or the source rows), one chunk per source page, plus a chunk
/// above the first page and one below the last: chunk 0 is the top edge, chunk `p + 1` source page `p`,
/// the last chunk the bottom edge.
///
/// Owned by one ``ListTransformer`` and used only by the thread driving it.
final class TransformLayer<Value: Sendable>: AnyTransformLayer {
    /// The chunks, in order.
    var chunks: ContiguousArray<TransformChunk<Value>> = [[], []]
    /// For layer 0, the source rows of a page's items.
    var sourceRows: (@Sendable (ContiguousArray<Value>, _ round: Int, _ nextID: inout Int) -> TransformChunk<Value>)?
    /// While recording, each chunk replaced through ``replace(_:with:)``, in order, with its rows before.
    private(set) var replaced: [(index: Int, old: TransformChunk<Value>)]?

    /// Starts recording the chunks replaced.
    func startRecording() {
        replaced = []
    }

    /// Stops recording and returns the chunks replaced since ``startRecording()``.
    func stopRecording() -> [(index: Int, old: TransformChunk<Value>)] {
        defer { replaced = nil }
        return replaced ?? []
    }

    /// Sets chunk `index` to `chunk`, recording its rows before while recording.
    func replace(_ index: Int, with chunk: TransformChunk<Value>) {
        if replaced != nil { replaced?.append((index, chunks[index])) }
        chunks[index] = chunk
    }

    func insertEmptyChunks(count: Int, at position: Int) {
        chunks.insert(contentsOf: repeatElement([], count: count), at: position)
    }
}

/// What every step of one transformed list shares: the round, the identities handed out, and whether the
/// ends of the list were reached.
///
/// Owned by one ``ListTransformer`` and used only by the thread driving it.
@usableFromInline
final class TransformContext {
    /// Increases with every publication; a row whose `round` equals it was computed for this one.
    var round = 1
    /// The next identity to hand out.
    var nextID = 0
    /// Whether the top and the bottom of the list were reached, as the separators last saw it.
    var top = false
    var bottom = false

    /// A fresh id.
    func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }
}

/// One step of a transform, running on the chunks of its input layer and writing its output layer, with
/// its rows' types known to it: the transformer calls it once per publication, never once per row.
@usableFromInline
protocol TransformStage: AnyObject {
    /// Recomputes the output chunks whose input chunks `changed` (ascending), and those a change next to
    /// them or at an edge affects.
    ///
    /// - Returns: The output chunks it recomputed, ascending.
    func run(changed: [Int], topChanged: Bool, bottomChanged: Bool) -> [Int]

    /// Recomputes every output chunk, reusing the rows whose inputs kept their identity.
    func rebuild()
}

/// A step of a transform as a value, typed by the rows it takes and makes; it makes its stage.
@usableFromInline
protocol TransformStep: Sendable {
    /// A stage running this step on `input`, which must be a layer of the rows the step takes, and the
    /// layer it writes.
    func makeStage(input: any AnyTransformLayer, context: TransformContext) -> (
        stage: any TransformStage, output: any AnyTransformLayer
    )
}
