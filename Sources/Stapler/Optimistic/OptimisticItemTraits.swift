// What an item can tell optimistic edits: the temporary identity its server copy carries, and its
// version. Both are opt-in protocols, checked at run time where a layer needs them.

/// An item whose server copy can carry the temporary identity an optimistic insertion gave it.
///
/// When the server's copy of a row inserted optimistically (a refresh, a push) arrives before the
/// mutation's answer and carries the insertion's temporary identity as `clientID`, the insertion shows
/// nothing more: the server's copy stands in its place, as an update of that row, and the row is shown once.
public protocol ClientIdentifiable: Identifiable where ID: Sendable {
    /// The temporary identity the client gave the row before the server named it, if any.
    var clientID: ID? { get }
}

/// The temporary identity `item` carries, when its type is ``ClientIdentifiable``.
@usableFromInline
func clientIdentity<Item>(of item: Item) -> ItemIdentity? {
    guard let carrying = item as? any ClientIdentifiable else { return nil }
    return clientIdentity(carried: carrying)
}

/// The temporary identity `item` carries, if any.
private func clientIdentity<Item: ClientIdentifiable>(carried item: Item) -> ItemIdentity? {
    item.clientID.map { ItemIdentity($0) }
}

/// An item that carries the version the server gave it, so that an older answer never overwrites a newer
/// row.
///
/// When a mutation's answer is older than the row shown from the server (a refresh brought version 4
/// before the answer with version 3 arrived), the answer is not folded in: the edit's layer is dropped and
/// the newer row stays. Without versions, the last answer applied wins.
public protocol Versioned {
    /// The type of the version: later versions compare greater.
    associatedtype Version: Comparable
    /// The row's version.
    var version: Version { get }
}

/// Whether `answer` is older than `row`, when their type is ``Versioned``.
@usableFromInline
func isOlder<Item>(_ answer: Item, than row: Item) -> Bool {
    guard let versioned = answer as? any Versioned else { return false }
    return isOlder(versioned: versioned, than: row)
}

/// Whether `answer` is older than `row`, when both are of `answer`'s type.
private func isOlder<Item: Versioned>(versioned answer: Item, than row: some Any) -> Bool {
    guard let row = row as? Item else { return false }
    return answer.version < row.version
}
