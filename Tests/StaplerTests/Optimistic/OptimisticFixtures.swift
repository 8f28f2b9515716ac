import Reactive
import Stapler
import TestSupport
import Testing

/// A post with a counter and a flag that optimistic edits change.
struct Post: Identifiable, Equatable, Sendable {
    let id: Int
    var title: String
    var likes = 10
    var done = false

    init(_ id: Int, _ title: String? = nil, likes: Int = 10, done: Bool = false) {
        self.id = id
        self.title = title ?? "t\(id)"
        self.likes = likes
        self.done = done
    }
}

/// An offset response of posts.
struct PostsPage: PaginatedResponse {
    let items: [Post]
    let total: Int
}

typealias PostServer = ManualServer<Int, PostsPage, ServerError>

/// Mutations the test completes by hand, in any order: `last` is the latest one started.
typealias Mutations = ManualServer<Int, Post?, ServerError>

/// A deduplicating paginator of posts over an offset server.
func postPaginator(_ server: PostServer, pageSize: Int = 10) -> Paginator<Post, Int, Void, PostsPage, ServerError> {
    Paginator(
        source: .offset { offset, size, _ in server.producer(offset, size: size) },
        options: PagingOptions(pageSize: pageSize, deduplication: .byID))
}

/// The server's posts: `ids`, each titled "t<id>" unless `changed` says otherwise.
func serve(_ request: PostServer.Request?, ids: some Sequence<Int>, changed: [Int: Post] = [:], total: Int = 1_000) {
    guard let request else {
        Issue.record("no request to answer")
        return
    }
    request.succeed(PostsPage(items: ids.map { changed[$0] ?? Post($0) }, total: total))
}

/// Answers every pending request of `server` in turn (a refresh of several pages) from the posts
/// `0..<end` without the ids in `deleted`, changed as `changed` says.
func serveAll(_ server: PostServer, changed: [Int: Post] = [:], deleted: Set<Int> = [], upTo end: Int) {
    let all = (0..<end).filter { !deleted.contains($0) }
    while let request = server.pending.first {
        let ids = all[min(request.key, all.count)..<min(all.count, request.key + request.size)]
        serve(request, ids: ids, changed: changed, total: all.count)
    }
}

/// A paginator whose server has answered posts `0..<count`, page by page, and the mirror of its updates.
func loadedPosts(
    _ count: Int, server: PostServer, pageSize: Int = 10
) -> (Paginator<Post, Int, Void, PostsPage, ServerError>, Mirror<Post>) {
    let paginator = postPaginator(server, pageSize: pageSize)
    paginator.refresh()
    serve(server.last, ids: 0..<min(count, pageSize))
    while paginator.items.value.count < count {
        paginator.loadNextPage()
        let start = paginator.items.value.count
        serve(server.last, ids: start..<min(count, start + pageSize))
    }
    return (paginator, Mirror(paginator))
}

/// Records every outcome an optimistic edit's completion reports.
final class OutcomeLog: Sendable {
    private let log = Locked<[String]>([])

    var values: [String] { log.value }

    func record(_ outcome: OptimisticOutcome<Post>) {
        switch outcome {
        case .confirmed(let post): log.append("confirmed \(post.map { "\($0.id)" } ?? "nil")")
        case .reverted(let error): log.append("reverted \(error)")
        case .cancelled: log.append("cancelled")
        }
    }
}

extension Paginator where Item == Post {
    /// Starts `edit` with a hand-completed mutation, logging its outcome.
    @discardableResult
    func optimistic(_ edit: OptimisticEdit<Post>, _ mutations: Mutations, key: Int, log: OutcomeLog) -> any Disposable {
        optimistic(edit, mutation: mutations.producer(key)) { log.record($0) }
    }

    /// The shown post with `id`, if any.
    func post(_ id: Int) -> Post? {
        items.value.first { $0.id == id }
    }
}
