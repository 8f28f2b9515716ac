import Dispatch
import Reactive
import Stapler
import TestSupport
import Testing

@Suite("Optimistic edits under racing threads")
struct OptimisticStressTests {
    @Test("P56: 4 threads start optimistic modifies while 2 threads land pages and settle mutations")
    func P56_racingEditsPagesAndEchoes() {
        let racers = RacingThreads(count: 6)
        defer { racers.stop() }
        for iteration in 0..<1_000 {
            let server = PostServer()
            let (paginator, mirror) = loadedPosts(20, server: server)
            let mutations = Mutations()
            let started = Locked(0)
            // The answers, in the order they were applied (one thread settles them).
            let lastEcho = Locked<[Int: String]>([:])
            racers.race { thread in
                for step in 0..<6 {
                    switch thread {
                    case 0..<4:
                        let id = (thread * 7 + step * 5 + iteration) % 20
                        let key = started.withLock { count -> Int in
                            count += 1
                            return count * 100 + id
                        }
                        paginator.optimistic(
                            .modify(id: id) { $0.title = "edit \(key)" }, mutation: mutations.producer(key))
                    case 4:
                        paginator.loadNextPage()
                        if let request = server.pending.first {
                            serve(request, ids: request.key..<request.key + request.size)
                        }
                    default:
                        if let request = mutations.pending.first {
                            let id = request.key % 100
                            lastEcho.withLock { $0[id] = "echo \(request.key)" }
                            request.succeed(Post(id, "echo \(request.key)"))
                        }
                    }
                }
            }
            while let request = mutations.pending.first {
                let id = request.key % 100
                lastEcho.withLock { $0[id] = "echo \(request.key)" }
                request.succeed(Post(id, "echo \(request.key)"))
            }
            #expect(paginator.pendingEdits.value.isEmpty, "iteration \(iteration)")
            for (id, title) in lastEcho.value {
                #expect(paginator.post(id)?.title == title, "iteration \(iteration): row \(id)")
            }
            let untouched = paginator.items.value.filter { !$0.title.hasPrefix("echo") }
            #expect(
                untouched.allSatisfy { $0.title == "t\($0.id)" }, "iteration \(iteration): a layer outlived its edit")
            #expect(mirror.failures.isEmpty, "iteration \(iteration): \(mirror.failures.prefix(2))")
        }
    }

    @Test("P58: 4 threads start likes of 5 rows while 2 threads settle them at random; rows end as the server's")
    func P58_racingOverlappingEdits() {
        let racers = RacingThreads(count: 6)
        defer { racers.stop() }
        for iteration in 0..<1_000 {
            let server = PostServer()
            let (paginator, mirror) = loadedPosts(5, server: server)
            let mutations = Mutations()
            let started = Locked(0)
            // The server's likes per row; it answers a row's mutations in the order it applied them.
            let likes = Locked(Array(repeating: 10, count: 5))
            let claimed = Locked<Set<Int>>([])
            let settle: @Sendable (Mutations.Request, Bool) -> Void = { request, succeeds in
                let id = request.key % 100
                if succeeds {
                    likes.withLock { likes in
                        likes[id] += 1
                        request.succeed(Post(id, likes: likes[id]))
                    }
                } else {
                    request.fail(.unavailable)
                }
            }
            racers.race { thread in
                for step in 0..<8 {
                    if thread < 4 {
                        let id = (thread + step + iteration) % 5
                        let key = started.withLock { count -> Int in
                            count += 1
                            return count * 100 + id
                        }
                        paginator.optimistic(.modify(id: id) { $0.likes += 1 }, mutation: mutations.producer(key))
                    } else {
                        let pending = mutations.pending
                        guard !pending.isEmpty else { continue }
                        let request = pending[(step * 3 + thread) % pending.count]
                        guard claimed.withLock({ $0.insert(request.key).inserted }) else { continue }
                        settle(request, (step + thread + iteration) % 3 != 0)
                    }
                }
            }
            for request in mutations.pending where claimed.withLock({ $0.insert(request.key).inserted }) {
                settle(request, true)
            }
            #expect(paginator.pendingEdits.value.isEmpty, "iteration \(iteration)")
            #expect(paginator.items.value.map(\.likes) == likes.value, "iteration \(iteration)")
            #expect(mirror.failures.isEmpty, "iteration \(iteration): \(mirror.failures.prefix(2))")
        }
    }
}
