/// How an optimistic edit's mutation settled.
///
/// Each outcome is published before it is returned: when an awaiting call gets it, the paginator's
/// properties already show the list it left.
public enum OptimisticOutcome<Item: Sendable>: Sendable {
    /// The server accepted the edit and answered with its row, or with `nil` when the row no longer
    /// exists; that answer replaced the edit's layer in the server's rows, in place.
    case confirmed(Item?)
    /// The mutation failed: the edit's layer was removed alone, the other pending edits replayed over the
    /// current rows, and the error reached ``Paginator/mutationErrors``.
    case reverted(any Error)
    /// The mutation was cancelled (the awaiting task was cancelled and the mutation threw
    /// `CancellationError`, or the producer form's handle was disposed): the edit's layer was removed
    /// alone, and no error is reported.
    case cancelled

    /// Whether the server accepted the edit.
    public var isConfirmed: Bool {
        if case .confirmed = self { return true }
        return false
    }

    /// The error of a reverted edit, if it was reverted.
    public var error: (any Error)? {
        if case .reverted(let error) = self { return error }
        return nil
    }
}

/// An optimistic edit whose mutation has not settled: what ``Paginator/pendingEdits`` lists, in the order
/// the edits started.
public struct PendingEdit<Item: Sendable>: Sendable, Hashable {
    /// The edit's place in the order edits started: later edits are applied over earlier ones.
    public let serial: UInt64
    /// What kind of change the edit makes.
    public let kind: OptimisticEditKind
    /// The identity of the row it changes, boxed.
    @usableFromInline let target: ItemIdentity

    @usableFromInline
    init(serial: UInt64, kind: OptimisticEditKind, target: ItemIdentity) {
        self.serial = serial
        self.kind = kind
        self.target = target
    }
}

extension PendingEdit where Item: Identifiable, Item.ID: Sendable {
    /// The identity of the row the edit changes (of the row it adds, for an insertion).
    public var id: Item.ID {
        guard let id = target.value as? Item.ID else {
            fatalError("PendingEdit: an edit's target identity is always of the item's ID type")
        }
        return id
    }
}

/// A mutation that failed: what ``Paginator/mutationErrors`` sends, once per reverted edit.
public struct MutationFailure<Item: Sendable>: Sendable {
    /// The edit that was reverted.
    public let edit: PendingEdit<Item>
    /// The mutation's error.
    public let error: any Error

    @usableFromInline
    init(edit: PendingEdit<Item>, error: any Error) {
        self.edit = edit
        self.error = error
    }
}

/// Why an optimistic edit's mutation failed without an error of its own.
public enum OptimisticEditError: Error, Sendable, Hashable {
    /// The mutation's producer completed without sending the server's answer.
    case noAnswer
}
