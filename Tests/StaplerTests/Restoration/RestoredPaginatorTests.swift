import Dispatch
import Foundation
import Reactive
import Stapler
import TestSupport
import Testing

@Suite("Restored paginators and their revalidation")
struct RestoredPaginatorTests {
    /// A saved list of rows 0-29 in pages of 10, whose bottom asks for key 30.
    static func savedRows() throws -> SavedList {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server)
        paginator.refresh()
        answer(server.last, total: 100)
        for _ in 0..<2 {
            paginator.loadNextPage()
            answer(server.last, total: 100)
        }
        let saved = try #require(paginator.savedState)
        return try JSONDecoder().decode(SavedList.self, from: JSONEncoder().encode(saved))
    }

    static func restore(
        _ saved: SavedList, on server: TwoEndedServer, revalidate: RefreshMode<Int>? = nil
    ) throws -> Paginator<Int, Int, String, Response, ServerError> {
        try Paginator(
            restoring: saved, source: .offset { offset, size, _ in server.producer(offset, size: size) },
            pageSize: 10, revalidate: revalidate)
    }

    @Test("P34: a restored list shows at once with no request; the first value an observer sees is it")
    func P34_showsAtOnce() throws {
        let server = TwoEndedServer()
        let paginator = try Self.restore(try Self.savedRows(), on: server)
        #expect(server.requests.isEmpty)
        let states = paginator.state.recordValues()
        let items = paginator.items.recordValues()
        #expect(states.value == [.data])
        #expect(items.value.map(Array.init) == [Array(0..<30)])
        #expect(
            paginator.loadStates.value
                == LoadStates(
                    refresh: .idle(endReached: false), prepend: .idle(endReached: true),
                    append: .idle(endReached: false)))
        #expect(paginator.total.value == 100)
        paginator.loadNextPage()
        #expect(server.keys == [30])
    }

    @Test("P34: a revalidation reloads every page in one commit; edge calls meanwhile are ignored, never cancel it")
    func P34_reloadAllRevalidation() throws {
        let server = TwoEndedServer()
        let paginator = try Self.restore(try Self.savedRows(), on: server, revalidate: .reloadAll)
        let mirror = Mirror(paginator)
        #expect(server.keys == [0])
        server.last?.succeed(page(0, 10, total: 100, base: 1_000))
        #expect(server.keys == [0, 10])
        paginator.preload(index: 29)
        #expect(synchronously { paginator.loadNextPage() } == .ignored(.refreshing))
        #expect(server.requests.count == 2, "no edge load during the revalidation")
        #expect(!server.requests[1].isDisposed, "and it was not cancelled")
        server.last?.succeed(page(10, 10, total: 100, base: 1_000))
        #expect(Array(paginator.items.value) == Array(0..<30), "the restored rows stay until the commit")
        server.last?.succeed(page(20, 10, total: 100, base: 1_000))
        #expect(Array(paginator.items.value) == Array(1_000..<1_030))
        #expect(mirror.changes == [.reloaded], "one commit")
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P34: a failed revalidation keeps the restored rows and their edges; a rejected key fails only its edge")
    func P34_failedRevalidation() throws {
        let server = TwoEndedServer()
        let paginator = try Self.restore(try Self.savedRows(), on: server, revalidate: .restart)
        server.last?.fail(.unavailable)
        #expect(Array(paginator.items.value) == Array(0..<30))
        #expect(paginator.loadStates.value.refresh == .failed(.source(.unavailable)))
        paginator.loadNextPage()
        #expect(server.keys == [0, 30])
        server.last?.fail(.unavailable)
        #expect(paginator.loadStates.value.append == .failed(.source(.unavailable)))
        for _ in 0..<10 { paginator.preload(index: 29) }
        #expect(server.requests.count == 2)
        paginator.refresh(.restart)
        #expect(server.keys == [0, 30, 0])
        #expect(Array(paginator.items.value) == Array(0..<30))
    }

    @Test("P34: a revalidation answered on one thread while another pages, refreshes and edits: one generation wins")
    func P34_revalidationRacesThePage() throws {
        let saved = try Self.savedRows()
        for iteration in 0..<1_000 {
            let server = TwoEndedServer()
            let paginator = try Self.restore(saved, on: server, revalidate: .restart)
            let mirror = Mirror(paginator)
            let revalidation = try #require(server.last)
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                revalidation.succeed(page(0, 10, total: 100, base: 1_000))
            }
            DispatchQueue.global().async(group: group) {
                for step in 0..<4 {
                    switch (iteration + step) % 4 {
                    case 0: paginator.preload(index: 29)
                    case 1: paginator.loadNextPage()
                    // An edit of the row as it is when applied (a replace with a value read before would
                    // write an old row into the new list: the test's race, not the paginator's).
                    case 2: paginator.modify(at: 0) { $0 += 0 }
                    default: if iteration % 7 == 0 { paginator.refresh() }
                    }
                }
            }
            group.wait()
            // The server's rows changed when the revalidation was answered: every later answer is new.
            for request in server.pending {
                request.succeed(
                    page(request.key, max(0, min(request.size, 100 - request.key)), total: 100, base: 1_000))
            }
            let rows = Array(paginator.items.value)
            let bases = Set(rows.map { $0 >= 1_000 })
            #expect(bases.count <= 1, "iteration \(iteration): rows of two generations \(rows)")
            #expect(Set(rows).count == rows.count)
            #expect(mirror.failures.isEmpty, "\(mirror.failures)")
        }
    }
}
