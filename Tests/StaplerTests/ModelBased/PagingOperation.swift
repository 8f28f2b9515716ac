/// One step of a randomized paging session.
enum PagingOperation: Equatable, CustomStringConvertible {
    case refresh(query: Int?)
    case loadNext
    case preload(row: Int)
    case retry
    case cancel
    /// Answers the `age`-th most recent request (0 = the latest), in one of several ways.
    case respond(age: Int, answer: Answer, onAnotherThread: Bool)
    /// Releases the paginator and starts a fresh one.
    case release

    enum Answer: Equatable, CaseIterable {
        case page, shortPage, emptyPage, failure, noPage, twoPages, pageThenFailure, negativeTotal
    }

    var description: String {
        switch self {
        case .refresh(let query): "refresh(\(query.map(String.init) ?? "same"))"
        case .loadNext: "loadNext"
        case .preload(let row): "preload(\(row))"
        case .retry: "retry"
        case .cancel: "cancel"
        case .respond(let age, let answer, let thread): "respond(#\(age), \(answer)\(thread ? ", other thread" : ""))"
        case .release: "release"
        }
    }

    static func random(using generator: inout SplitMix) -> PagingOperation {
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<10: .refresh(query: Bool.random(using: &generator) ? nil : Int.random(in: 0..<3, using: &generator))
        case 10..<25: .loadNext
        case 25..<35: .preload(row: Int.random(in: -2..<60, using: &generator))
        case 35..<42: .retry
        case 42..<46: .cancel
        case 46..<99:
            .respond(
                age: Int.random(in: 0..<3, using: &generator) == 0 ? 1 : 0,
                answer: Answer.allCases.randomElement(using: &generator)!,
                onAnotherThread: Bool.random(using: &generator))
        default: .release
        }
    }
}
