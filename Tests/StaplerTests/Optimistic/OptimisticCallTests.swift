import Observation
import Reactive
import Stapler
import TestSupport
import Testing

/// A failure a mutation throws.
struct Refused: Error, Equatable {}

@Suite("Optimistic edit calls")
struct OptimisticCallTests {
    @Test("P56: the async form shows the edit while the mutation runs, and returns once the echo shows")
    func P56_asyncConfirms() async {
        let server = PostServer()
        let (paginator, mirror) = loadedPosts(10, server: server)
        let outcome = await paginator.optimistic(.modify(id: 3) { $0.title = "x" }) {
            #expect(paginator.post(3)?.title == "x")
            #expect(paginator.pendingEdits.value.map(\.kind) == [.modify])
            return Post(3, "t3x")
        }
        #expect(outcome.isConfirmed)
        #expect(paginator.post(3)?.title == "t3x")
        #expect(paginator.pendingEdits.value.isEmpty)
        #expect(mirror.changes == [.updated(3..<4), .updated(3..<4)])
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P57: the async form reverts on a thrown error, which reaches mutationErrors")
    func P57_asyncReverts() async {
        let server = PostServer()
        let (paginator, mirror) = loadedPosts(10, server: server)
        let errors = paginator.mutationErrors.record()
        let outcome = await paginator.optimistic(.remove(id: 4)) {
            #expect(paginator.post(4) == nil)
            throw Refused()
        }
        #expect(outcome.error is Refused)
        #expect(paginator.items.value.map(\.id) == Array(0..<10))
        #expect(errors.values.map(\.edit.id) == [4])
        #expect(errors.values.map(\.edit.kind) == [.remove])
        #expect(mirror.changes == [.removed(4..<5), .inserted(4..<5)])
    }

    @Test("P57: a mutation that throws CancellationError cancels the edit, and reports no error")
    func P57_asyncCancels() async {
        let server = PostServer()
        let (paginator, _) = loadedPosts(10, server: server)
        let errors = paginator.mutationErrors.record()
        let outcome = await paginator.optimistic(.modify(id: 1) { $0.title = "x" }) { throw CancellationError() }
        guard case .cancelled = outcome else {
            Issue.record("expected cancelled, got \(outcome)")
            return
        }
        #expect(paginator.post(1)?.title == "t1")
        #expect(errors.values.isEmpty)
    }

    @Test("P57: disposing the producer form's handle disposes the mutation and cancels the edit")
    func P57_handleCancels() {
        let server = PostServer()
        let (paginator, mirror) = loadedPosts(10, server: server)
        let mutations = Mutations()
        let log = OutcomeLog()
        let handle = paginator.optimistic(.modify(id: 2) { $0.title = "x" }, mutations, key: 2, log: log)
        handle.dispose()
        #expect(mutations.last?.isDisposed == true)
        #expect(paginator.post(2)?.title == "t2")
        mutations.last?.succeed(Post(2, "late"))
        #expect(paginator.post(2)?.title == "t2", "an answer after the cancel is ignored")
        #expect(log.values == ["cancelled"])
        #expect(mirror.changes == [.updated(2..<3), .updated(2..<3)])
    }

    @Test("P57: a mutation producer that completes with no answer reverts the edit")
    func P57_producerWithoutAnswer() {
        let server = PostServer()
        let (paginator, _) = loadedPosts(10, server: server)
        let mutations = Mutations()
        let log = OutcomeLog()
        paginator.optimistic(.remove(id: 2), mutations, key: 2, log: log)
        mutations.last?.complete()
        #expect(log.values == ["reverted \(OptimisticEditError.noAnswer)"])
        #expect(paginator.post(2) != nil)
    }

    @Test("P56: a local edit under a pending optimistic edit changes the server's rows; the layer stays on top")
    func P56_localEditUnderLayer() {
        let server = PostServer()
        let (paginator, mirror) = loadedPosts(10, server: server)
        let mutations = Mutations()
        let log = OutcomeLog()
        paginator.optimistic(.modify(id: 3) { $0.likes += 1 }, mutations, key: 3, log: log)
        #expect(paginator.modify(id: 3) { $0.title = "local" } == .applied)
        #expect(paginator.post(3) == Post(3, "local", likes: 11))
        mutations.last?.fail(.unavailable)
        #expect(paginator.post(3) == Post(3, "local", likes: 10))
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P56: an optimistic insertion's negative index traps, naming the parameter")
    func P56_negativeInsertIndexTraps() async {
        await #expect(processExitsWith: .failure) {
            let (paginator, _) = loadedPosts(10, server: PostServer())
            paginator.optimistic(.insert(Post(-1), at: .index(-1)), mutation: SignalProducer<Post?, Never>.never)
        }
    }
}

@Suite("Optimistic edits on the model")
@MainActor
struct OptimisticModelTests {
    @Test("P56: the model shows the pending edits and returns from optimistic showing the echo")
    func P56_modelOptimistic() async {
        let server = PostServer()
        let (paginator, _) = loadedPosts(10, server: server)
        let model = PagingModel(paginator)
        let mutations = Mutations()
        let outcomes = OutcomeLog()
        model.optimistic(.insert(Post(-1), at: .index(2)), mutation: mutations.producer(1)) { outcomes.record($0) }
        await model.settled()
        #expect(model.items.map(\.id).prefix(4) == [0, 1, -1, 2])
        #expect(model.pendingEdits.map(\.id) == [-1])
        let outcome = await model.optimistic(.modify(id: 5) { $0.likes = 99 }) { Post(5, likes: 50) }
        #expect(outcome.isConfirmed)
        #expect(model.items.first { $0.id == 5 }?.likes == 50)
        #expect(model.pendingEdits.map(\.id) == [-1])
        mutations.last?.succeed(Post(600))
        await model.settled()
        #expect(model.items.map(\.id).prefix(4) == [0, 1, 600, 2])
        #expect(model.pendingEdits.isEmpty)
        #expect(outcomes.values == ["confirmed 600"])
    }
}

/// A note whose server copy carries the temporary id the client gave it.
struct Note: ClientIdentifiable, Equatable, Sendable {
    let id: Int
    var clientID: Int?
}

/// An offset response of notes.
struct NotesPage: PaginatedResponse {
    let items: [Note]
    let total: Int
}

@Suite("Optimistic insertions with client ids")
struct ClientIDTests {
    @Test("P56: the server's copy of an insertion arrives first, carrying its client id: it is shown once")
    func P56_pushFirst() {
        let server = ManualServer<Int, NotesPage, ServerError>()
        let paginator = Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) },
            options: PagingOptions(pageSize: 10, deduplication: .byID))
        paginator.refresh()
        server.last?.succeed(NotesPage(items: (0..<10).map { Note(id: $0) }, total: 100))
        let mirror = Mirror(paginator)
        let mutations = ManualServer<Int, Note?, ServerError>()
        paginator.optimistic(.insert(Note(id: -1), at: .top), mutation: mutations.producer(1))
        #expect(mirror.changes == [.inserted(0..<1)])
        paginator.refresh()
        let pushed = Note(id: 500, clientID: -1)
        server.last?.succeed(NotesPage(items: [pushed] + (0..<9).map { Note(id: $0) }, total: 100))
        #expect(paginator.items.value.map(\.id) == [500] + Array(0..<9), "500 once, in the insertion's place")
        #expect(mirror.changes.last == .difference(ItemsDifference(removals: [10], insertions: [], updates: [0])))
        mutations.last?.succeed(pushed)
        #expect(paginator.items.value.map(\.id) == [500] + Array(0..<9))
        #expect(paginator.pendingEdits.value.isEmpty)
        #expect(mirror.changes.count == 2, "the echo changes nothing")
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }
}

@Suite("Local edits under optimistic edits")
struct IndexUnderLayerTests {
    @Test("P56: an edit by index names the row shown, while an optimistic insertion shifts the rows")
    func P56_indexEditFindsTheRowShown() {
        let server = PostServer()
        let (paginator, mirror) = loadedPosts(10, server: server)
        let mutations = Mutations()
        let log = OutcomeLog()
        paginator.optimistic(.insert(Post(-1), at: .top), mutations, key: 1, log: log)
        paginator.optimistic(.remove(id: 4), mutations, key: 2, log: log)
        #expect(paginator.remove(at: 1) == .applied)
        #expect(paginator.modify(at: 4) { $0.title = "five" } == .applied)
        #expect(paginator.items.value.map(\.id) == [-1, 1, 2, 3, 5, 6, 7, 8, 9])
        #expect(paginator.post(5)?.title == "five")
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }
}
