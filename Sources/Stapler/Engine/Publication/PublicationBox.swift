/// A publication kept at one address, so that the outbox hands publications around by reference.
///
/// A copy, a move or a destroy of so large a generic value (a snapshot, the items before the change and
/// the change itself: close to 500 bytes) is a call through its value witnesses even in specialised
/// code, and moving one through the outbox's queue, the flusher's steps and its locals cost about a third
/// of a page's instructions. A box is made once and filled again and again: the outbox keeps the boxes the
/// flusher emptied and refills them, so a publication allocates nothing once a few boxes exist.
///
/// Who may touch a box: it is filled under the outbox's lock; the published box is read under that lock,
/// or by the flusher (the only thread that replaces it); a box taken off the queue belongs to the flusher
/// until it is published; the retired one is emptied by the flusher with no lock held (releasing a
/// publication may run user code: an item's or the metadata's `deinit`), after which it goes back to
/// the outbox under the lock.
@usableFromInline
final class PublicationBox<Item: Sendable, Query: Sendable, Metadata: Sendable, Failure: Error>: @unchecked Sendable {
    @usableFromInline typealias Publication = PagingPublication<Item, Query, Metadata, Failure>

    // Guarded by the outbox's lock, or owned by the flusher, as the type's documentation says.
    @usableFromInline let address: UnsafeMutablePointer<Publication>
    // Guarded like `address`.
    @exclusivity(unchecked) @usableFromInline var isFilled: Bool

    /// Makes a box holding `publication`.
    @inlinable
    init(_ publication: consuming Publication) {
        address = .allocate(capacity: 1)
        address.initialize(to: consume publication)
        isFilled = true
    }

    /// Makes an empty box.
    @inlinable
    init() {
        address = .allocate(capacity: 1)
        isFilled = false
    }

    deinit {
        if isFilled {
            Publication.release(at: address)
        }
        address.deallocate()
    }

    /// The publication in the box, read and written in place.
    ///
    /// Only while the box is filled.
    @inlinable
    var publication: Publication {
        unsafeAddress { UnsafePointer(address) }
        unsafeMutableAddress { address }
    }

    /// Puts `publication` into the emptied box.
    @inlinable
    func fill(_ publication: consuming Publication) {
        address.initialize(to: consume publication)
        isFilled = true
    }

    /// Moves the publication out of the box, which is then empty.
    @inlinable
    func take() -> Publication {
        isFilled = false
        return address.move()
    }

    /// Releases the publication in the box; call with no lock held.
    @inlinable
    func empty() {
        Publication.release(at: address)
        isFilled = false
    }
}
