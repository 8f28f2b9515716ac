import Reactive
import Stapler
import TestSupport
import Testing

/// "What is at the bottom of the list" has one answer: ``LoadStates/append`` with the snapshot's
/// ``PagingSnapshot/stopReason``; the footer, ``ListContent/isLoadingMore`` and
/// ``Paginator/showsNextPageIndicator`` are derived from it and never disagree with it.
@Suite("Bottom of the list: one answer")
struct BottomAnswerTests {
    typealias Failure = PagingError<ServerError>
    typealias Subject = Paginator<Int, Int, String, Response, ServerError>

    @Test("after a failed refresh with rows shown, a load at the bottom shows its spinner, then its Retry footer")
    func failedRefreshThenABottomLoad() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server)
        paginator.refresh()
        answer(server.last, total: 40)
        paginator.loadNextPage()
        answer(server.last, total: 40)
        paginator.refresh()
        server.last?.fail(.unavailable)
        let refreshError = Failure.source(.unavailable)
        #expect(paginator.state.value == .errorRefreshing(refreshError))
        #expect(
            paginator.presentation.value
                == .content(ListContent(itemCount: 20, footer: .hidden, refreshError: refreshError)))
        #expect(Self.disagreements(paginator).isEmpty, "\(Self.disagreements(paginator))")

        paginator.loadNextPage()
        #expect(server.keys.last == 20, "the rows the failed refresh kept page on")
        #expect(paginator.loadStates.value.append == .loading)
        #expect(paginator.state.value == .errorRefreshing(refreshError), "the refresh failure comes first")
        #expect(
            paginator.presentation.value
                == .content(
                    ListContent(itemCount: 20, footer: .loadingRow, isLoadingMore: true, refreshError: refreshError)))
        #expect(paginator.showsNextPageIndicator.value, "the spinner of the load at the bottom")
        #expect(Self.disagreements(paginator).isEmpty, "\(Self.disagreements(paginator))")

        server.last?.fail(.timeout)
        let pageError = Failure.source(.timeout)
        #expect(paginator.loadStates.value.append == .failed(pageError))
        #expect(paginator.snapshot.value.stopReason == .failed(pageError))
        #expect(
            paginator.presentation.value
                == .content(ListContent(itemCount: 20, footer: .retry(pageError), refreshError: refreshError)))
        #expect(!paginator.showsNextPageIndicator.value)
        #expect(Self.disagreements(paginator).isEmpty, "\(Self.disagreements(paginator))")
        let rendered = TextListPresenter<ServerError>().render(paginator.presentation.value) {}
        #expect(
            rendered
                == RenderedList(
                    rowCount: 20, footer: "[Retry]", notice: "Could not refresh: source error: unavailable"))

        paginator.retry()
        #expect(paginator.loadStates.value.refresh == .loading, "Retry runs the failed refresh again, alone")
        #expect(
            paginator.presentation.value == .content(ListContent(itemCount: 20, footer: .hidden, isRefreshing: true)))
        #expect(Self.disagreements(paginator).isEmpty, "\(Self.disagreements(paginator))")
    }

    @Test("a load or a failure at the top leaves the bottom's footer to the bottom")
    func topEdgeLeavesTheFooter() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, initialKey: 50)
        paginator.refresh()
        answer(server.last, total: 60)
        paginator.loadNextPage()
        answer(server.last, total: 60)
        #expect(paginator.presentation.value == .content(ListContent(itemCount: 10, footer: .end)))
        paginator.loadPreviousPage()
        #expect(paginator.state.value == .loadingMore)
        #expect(paginator.presentation.value == .content(ListContent(itemCount: 10, footer: .end)))
        #expect(!paginator.showsNextPageIndicator.value)
        server.last?.fail(.timeout)
        #expect(paginator.state.value == .errorLoadingMore(.source(.timeout)))
        #expect(paginator.loadStates.value.prepend == .failed(.source(.timeout)))
        #expect(paginator.presentation.value == .content(ListContent(itemCount: 10, footer: .end)))
        #expect(Self.disagreements(paginator).isEmpty, "\(Self.disagreements(paginator))")
    }

    @Test(
        "over random calls and answers, the footer, isLoadingMore, the indicator and stopReason agree with loadStates.append after every step",
        arguments: 0..<24 as Range<UInt64>)
    func randomSequencesAgreeAtTheBottom(seed: UInt64) {
        var random = SplitMix(seed: seed)
        let server = TwoEndedServer()
        let total = Bool.random(using: &random) ? 35 : 200
        let paginator = offsetPaginator(server, initialKey: Bool.random(using: &random) ? 50 : nil)
        var trace: [String] = []
        for _ in 0..<150 {
            trace.append(Self.step(paginator, server, total: total, using: &random))
            let found = Self.disagreements(paginator)
            if !found.isEmpty {
                Issue.record("seed \(seed) after \(trace.joined(separator: ", ")): \(found)")
                return
            }
        }
    }

    /// Makes one random call or answers one pending request at random, and says which.
    static func step(
        _ paginator: Subject, _ server: TwoEndedServer, total: Int, using random: inout SplitMix
    ) -> String {
        let pending = server.pending
        if let request = pending.randomElement(using: &random), Int.random(in: 0..<2, using: &random) == 0 {
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                request.fail(.timeout)
                return "fail \(request.key)"
            case 1:
                request.fail(.unavailable)
                return "fail \(request.key) (unavailable)"
            case 2:
                request.complete()
                return "no page at \(request.key)"
            case 3:
                request.succeed(page(request.key, 0, total: total))
                return "empty page at \(request.key)"
            default:
                answer(request, total: total)
                return "page at \(request.key)"
            }
        }
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            paginator.refresh()
            return "refresh"
        case 1:
            paginator.retry()
            return "retry"
        case 2:
            paginator.cancel()
            return "cancel"
        case 3:
            paginator.loadPreviousPage()
            return "load previous"
        case 4, 5:
            let index = Int.random(in: -1...paginator.items.value.count, using: &random)
            paginator.preload(index: index)
            return "preload \(index)"
        default:
            paginator.loadNextPage()
            return "load next"
        }
    }

    /// Where the paginator's published answers about the bottom disagree with `loadStates.append` and
    /// `stopReason`; empty when they agree.
    static func disagreements(_ paginator: Subject) -> [String] {
        let states = paginator.loadStates.value
        let (append, refresh) = (states.append, states.refresh)
        let stop = paginator.snapshot.value.stopReason
        let indicator = paginator.showsNextPageIndicator.value
        let screen = paginator.presentation.value
        var found: [String] = []
        func expect(_ holds: Bool, _ rule: String) {
            guard !holds else { return }
            found.append(
                "\(rule) (loadStates \(states), stopReason \(String(describing: stop)), presentation \(screen), "
                    + "indicator \(indicator), state \(paginator.state.value))")
        }
        if refresh.error != nil {
            expect(paginator.state.value.name == "errorRefreshing", "state shows a refresh failure first")
        }
        switch append {
        case .loading:
            expect(stop == nil, "a load at the bottom has no stop reason")
            expect(indicator, "a load at the bottom shows the next-page indicator")
        case .failed(let error):
            expect(stop == .failed(error) || (error == .repeatedKey && stop == .repeatedKey), "the failure stops")
            expect(!indicator, "a failure at the bottom shows no indicator")
        case .idle(let ended):
            guard !refresh.isLoading, refresh.error == nil, paginator.state.value != .uninitialized else { break }
            if ended {
                expect(
                    stop == .endOfList || stop == .emptyFirstPage, "an end stops")
                expect(!indicator, "no indicator at the end")
            } else {
                expect(stop == nil || stop == .cancelled, "an open bottom has no stop reason but a cancel")
            }
        }
        guard case .content(let content) = screen else {
            expect(!append.isLoading && append.error == nil, "a load or failure at the bottom shows the rows")
            expect(!indicator, "no indicator without rows")
            return found
        }
        expect(content.isLoadingMore == append.isLoading, "isLoadingMore is loadStates.append.isLoading")
        expect(!indicator || content.footer == .loadingRow, "the indicator shows only with the loading row")
        switch append {
        case .loading:
            expect(content.footer == .loadingRow, "a load at the bottom shows the loading row")
        case .failed(let error):
            expect(
                content.footer == (error.isRetryable ? .retry(error) : .unavailable(error)),
                "a failure at the bottom shows its footer")
        case .idle(let ended):
            if refresh.isLoading || refresh.error != nil {
                expect(content.footer == .hidden, "an idle bottom shows no footer while a refresh loads or failed")
            } else if ended {
                expect(content.footer == .end, "an ended bottom shows the end")
            } else {
                expect(content.footer == .loadingRow, "an open bottom shows the loading row")
            }
        }
        return found
    }
}
