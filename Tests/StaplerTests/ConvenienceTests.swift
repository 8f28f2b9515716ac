import Reactive
import Stapler
import TestSupport
import Testing

@Suite("Names, defaults and facade options")
struct ConvenienceTests {
    @Test("a stored paginator of a built-in model spells its response, query and error; the key comes from the model")
    func typeAliases() {
        let cursorServer = ManualServer<String?, CursorPage, ServerError>()
        let cursor: CursorPaginator<CursorPage, Void, ServerError> = Paginator(
            source: .cursor { cursor, _, _ in cursorServer.producer(cursor) }, pageSize: 10)
        let offset: OffsetPaginator<Response, Void, ServerError> = Paginator(
            source: .offset { offset, size, _ in OffsetServer().producer(offset, size: size) }, pageSize: 10)
        let single: SingleLoadPaginator<Int, Void, ServerError> = Paginator(
            source: .singleLoad { _ in SignalProducer(value: [1, 2, 3]) })
        single.refresh()
        cursor.refresh()
        #expect(cursorServer.keys == [nil])
        #expect(Array(single.items.value) == [1, 2, 3] && single.isEndReached.value)
        #expect(offset.state.value == .uninitialized)
    }

    @Test("P17: a page size is required for every model but a single load; leaving it out traps, naming pageSize")
    func P17_missingPageSizeTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Paginator<Int, Int, Void, Response, ServerError>(
                source: .offset { _, _, _ in SignalProducer<Response, ServerError>.never })
        }
    }

    @Test("the facade takes a prefetch distance and a deduplication")
    func facadeOptions() {
        let server = OffsetServer()
        let stapler = Stapler<Response, ServerError>(pageSize: 10, prefetchDistance: 3, deduplication: .by { $0 }) {
            offset, size in server.producer(offset, size: size)
        }
        stapler.initialLoadAction.apply().start()
        server.last?.succeed(page(0, 10, total: 30))
        stapler.paginator.preload(index: 5)
        #expect(server.keys == [0])
        stapler.paginator.preload(index: 6)
        #expect(server.keys == [0, 10])
        server.last?.succeed(Response(items: Array(8..<18), total: 30))
        #expect(Array(stapler.items.value) == Array(0..<18), "8 and 9 are dropped as duplicates")
    }
}
