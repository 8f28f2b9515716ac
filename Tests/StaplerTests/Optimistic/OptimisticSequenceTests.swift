import Reactive
import Stapler
import TestSupport
import Testing

/// The rows an optimistic session must show, worked out by the test's own rules: the server's rows as
/// loaded (pages, a refresh, answers folded in), with the pending edits applied over them in start order.
struct OptimisticReference {
    enum Edit {
        case like(Int)
        case remove(Int)
        case insert(Int)
    }

    /// The server's rows, in order.
    var server = (0..<40).map { Post($0) }
    /// The rows loaded from the server, with the answers folded in.
    var base: [Post] = []
    /// The ids the list has had in this generation (deduplication).
    var seen: Set<Int> = []
    /// The pending edits, in start order, by their mutation's key.
    var pending: [(key: Int, edit: Edit)] = []

    /// The rows shown: the pending edits over the base.
    var shown: [Post] {
        pending.reduce(into: base) { rows, entry in
            switch entry.edit {
            case .like(let id):
                if let index = rows.firstIndex(where: { $0.id == id }) { rows[index].likes += 1 }
            case .remove(let id):
                rows.removeAll { $0.id == id }
            case .insert(let temporary):
                if !rows.contains(where: { $0.id == temporary }) { rows.insert(Post(temporary), at: 0) }
            }
        }
    }

    /// The page at `offset` landed.
    mutating func land(_ page: ArraySlice<Post>) {
        for post in page where seen.insert(post.id).inserted { base.append(post) }
    }

    /// A refresh's first page replaced the list.
    mutating func refresh(_ page: ArraySlice<Post>) {
        base = []
        seen = []
        land(page)
    }

    /// The server applies the edit of `key` and answers with its row; the answer is folded into the base.
    mutating func confirm(_ key: Int) -> Post? {
        let index = pending.firstIndex { $0.key == key }!
        let edit = pending.remove(at: index).edit
        switch edit {
        case .like(let id):
            guard let row = server.firstIndex(where: { $0.id == id }) else {
                if let shown = base.firstIndex(where: { $0.id == id }) { base.remove(at: shown) }
                return nil
            }
            server[row].likes += 1
            if let shown = base.firstIndex(where: { $0.id == id }) { base[shown] = server[row] }
            return server[row]
        case .remove(let id):
            server.removeAll { $0.id == id }
            if let shown = base.firstIndex(where: { $0.id == id }) { base.remove(at: shown) }
            return nil
        case .insert(let temporary):
            let created = Post(1_000 - temporary, "t\(temporary)")
            server.insert(created, at: 0)
            seen.insert(created.id)
            base.insert(created, at: 0)
            return created
        }
    }

    /// The edit of `key` failed.
    mutating func revert(_ key: Int) {
        pending.removeAll { $0.key == key }
    }
}

@Suite("Optimistic edits in random sequences")
struct OptimisticSequenceTests {
    @Test(
        "P56, P57, P58: random edits settle in any order among pages and refreshes; the rows match the reference",
        arguments: 0..<200)
    func P57_randomSequencesMatchTheReference(seed: Int) {
        var random = SplitMix(seed: UInt64(seed))
        var reference = OptimisticReference()
        let server = PostServer()
        let paginator = postPaginator(server)
        let mirror = Mirror(paginator)
        let mutations = Mutations()
        let answer: (PostServer.Request?, [Post]) -> ArraySlice<Post>? = { request, rows in
            guard let request else { return nil }
            let page = rows[min(request.key, rows.count)..<min(rows.count, request.key + request.size)]
            request.succeed(PostsPage(items: Array(page), total: rows.count))
            return page
        }
        paginator.refresh()
        reference.refresh(answer(server.last, reference.server)!)
        var nextKey = 1
        for step in 0..<60 {
            let roll = Int.random(in: 0..<100, using: &random)
            let liveIDs = reference.shown.map(\.id)
            switch roll {
            case 0..<12:
                let before = server.requests.count
                paginator.loadNextPage()
                if server.requests.count > before, let page = answer(server.last, reference.server) {
                    reference.land(page)
                }
            case 12..<18:
                paginator.refresh()
                reference.refresh(answer(server.last, reference.server)!)
            case 18..<50:
                guard let id = liveIDs.randomElement(using: &random) else { continue }
                let edit: OptimisticReference.Edit = roll < 40 ? .like(id) : .remove(id)
                reference.pending.append((nextKey, edit))
                let optimistic: OptimisticEdit<Post> =
                    roll < 40 ? .modify(id: id) { $0.likes += 1 } : .remove(id: id)
                paginator.optimistic(optimistic, mutation: mutations.producer(nextKey))
                nextKey += 1
            case 50..<56:
                reference.pending.append((nextKey, .insert(-nextKey)))
                paginator.optimistic(.insert(Post(-nextKey), at: .top), mutation: mutations.producer(nextKey))
                nextKey += 1
            default:
                guard let entry = reference.pending.randomElement(using: &random) else { continue }
                let request = mutations.requests.first { $0.key == entry.key }
                if Bool.random(using: &random) {
                    request?.succeed(reference.confirm(entry.key))
                } else {
                    reference.revert(entry.key)
                    request?.fail(.unavailable)
                }
            }
            guard paginator.items.value.map(\.id) == reference.shown.map(\.id),
                Array(paginator.items.value) == reference.shown
            else {
                Issue.record(
                    "seed \(seed), step \(step): \(paginator.items.value.map(\.id)) is not \(reference.shown.map(\.id))"
                )
                return
            }
            #expect(paginator.pendingEdits.value.map(\.serial).count == reference.pending.count)
        }
        while let entry = reference.pending.first {
            mutations.requests.first { $0.key == entry.key }?.succeed(reference.confirm(entry.key))
        }
        #expect(Array(paginator.items.value) == reference.base, "seed \(seed): the server's rows alone")
        #expect(mirror.failures.isEmpty, "seed \(seed): \(mirror.failures.prefix(2))")
    }
}
