import Foundation

/// An item of an HTTP API: any JSON object with an `id`, a number or a string.
struct RemoteItem: ListItem, Identifiable, Decodable {
    let id: RemoteID
}

/// The `id` of a remote item, as the JSON has it (`17` or `"17"` both print `17`).
struct RemoteID: Hashable, Sendable, CustomStringConvertible, Decodable {
    let description: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            description = String(number)
        } else {
            description = try container.decode(String.self)
        }
    }
}

/// The envelope of Django REST Framework's paginations: `{count, next, previous, results}`
/// (cursor pagination leaves out `count`).
struct Envelope: Decodable {
    let count: Int?
    let next: String?
    let previous: String?
    let results: [RemoteItem]

    /// The `next` link, resolved against the URL of the response that carried it.
    func nextURL(relativeTo base: URL) -> URL? {
        next.flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
    }

    /// The `previous` link, resolved against the URL of the response that carried it.
    func previousURL(relativeTo base: URL) -> URL? {
        previous.flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
    }
}
