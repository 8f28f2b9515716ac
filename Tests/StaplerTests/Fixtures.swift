import Reactive
import Stapler
import TestSupport

enum ServerError: Error, Equatable {
    case unavailable
    case timeout
}

struct Response: PaginatedResponse, Equatable, Codable {
    let items: [Int]
    let total: Int
}

/// A cursor page: its items and the cursor of the next page, if any.
struct CursorPage: CursorPageResponse {
    let items: [Int]
    let nextCursor: String?
}

/// A page of an exhaustible list: its items and whether it is the last.
struct FlaggedPage: ExhaustiblePageResponse {
    let items: [Int]
    let isExhausted: Bool
}

typealias OffsetServer = ManualServer<Int, Response, ServerError>

/// A Stapler over a hand-driven server.
func makeStapler(pageSize: Int = 10, server: OffsetServer) -> Stapler<Response, ServerError> {
    Stapler(pageSize: pageSize) { offset, size in server.producer(offset, size: size) }
}

/// The response for `offset..<offset+count` of a list of `total` items numbered from `base`.
func page(_ offset: Int, _ count: Int, total: Int, base: Int = 0) -> Response {
    Response(items: Array(base + offset..<base + offset + count), total: total)
}

extension Property {
    /// Records this property's current value and every change.
    func recordValues() -> Locked<[Value]> {
        let log = Locked<[Value]>([])
        producer.startWithValues { log.append($0) }
        return log
    }
}

/// Makes `call` as a synchronous call: in an `async` function the paginator's `async` overload would be
/// chosen, which waits for the load; these tests start it and watch it instead.
@discardableResult
func synchronously<Result>(_ call: () -> Result) -> Result {
    call()
}
