import TestSupport

/// How a randomized session is set up: the page model, deduplication, and where notifications run.
struct ModelConfiguration: Equatable, CustomStringConvertible {
    enum PageModel: Equatable {
        /// Offset + total (`PageSource.offset`): a negative total is the bad response.
        case offset
        /// Cursor (`PageSource.cursor`): a repeated cursor is the bad response (`PagingError.repeatedKey`).
        case cursor
    }

    var model: PageModel
    /// `deduplication: .by(\.self)`, with a server that repeats items (the overlapping answer).
    var deduplicates: Bool
    /// `deliveringOn: TestScheduler`: notifications wait for `advance`/`run`, and responses may be delayed.
    var delaysDelivery: Bool
    /// `initialKey` at position 10: the list opens mid-way and pages up as well as down.
    var opensMidway: Bool
    /// A policy on a `TestScheduler` clock (a load timeout, automatic retries with backoff) and a query
    /// cache; the clock moves by ``PagingOperation/advanceClock(seconds:)``.
    var usesPolicies: Bool
    /// A memory bound of ``PagingReference/maxPages`` pages: pages go at the far end and scrolling back
    /// reloads them with their own keys.
    var bounded: Bool
    /// Placeholders: ``PagingOperation/Call/preload(row:)`` takes slot indices once the total is known,
    /// and for the offset model preloads jump beyond ``PagingReference/jumpThreshold`` too.
    var placeholders: Bool
    /// Sessions save the list at random steps and restore a second paginator from it, which must agree
    /// with the first at every later step (``PagingOperation/saveAndRestore``).
    var restores: Bool

    /// The configuration of a seed: the eight low bits choose, so every run covers all 256 evenly.
    init(seed: UInt64) {
        model = seed & 1 == 0 ? .offset : .cursor
        deduplicates = seed & 2 != 0
        delaysDelivery = seed & 4 != 0
        opensMidway = seed & 8 != 0
        usesPolicies = seed & 16 != 0
        bounded = seed & 32 != 0
        placeholders = seed & 64 != 0
        restores = seed & 128 != 0
    }

    init(
        model: PageModel, deduplicates: Bool, delaysDelivery: Bool, opensMidway: Bool = false,
        usesPolicies: Bool = false, bounded: Bool = false, placeholders: Bool = false, restores: Bool = false
    ) {
        self.model = model
        self.deduplicates = deduplicates
        self.delaysDelivery = delaysDelivery
        self.opensMidway = opensMidway
        self.usesPolicies = usesPolicies
        self.bounded = bounded
        self.placeholders = placeholders
        self.restores = restores
    }

    /// Whether preloads far from the loaded rows jump (placeholders over an offset source).
    var jumps: Bool { placeholders && model == .offset }

    var description: String {
        let delivery = delaysDelivery ? "TestScheduler delivery" : "synchronous delivery"
        return "\(model), \(deduplicates ? "dedup" : "no dedup"), \(delivery)\(opensMidway ? ", opened mid-way" : "")"
            + (usesPolicies ? ", timeout, retries and query cache" : "")
            + (bounded ? ", maxPages \(PagingReference.maxPages)" : "")
            + (placeholders ? (jumps ? ", placeholders and jumps" : ", placeholders") : "")
            + (restores ? ", save and restore" : "")
    }
}

/// One step of a randomized paging session.
///
/// `queue` 0 is the test's own thread; 1...3 are serial queues entered with `sync`, so the order stays
/// fixed while the threads differ.
enum PagingOperation: Equatable, CustomStringConvertible {
    /// Calls the paginator.
    case call(Call, queue: Int)
    /// Answers the `age`-th most recent request of the session (0 = the latest; older ones are superseded
    /// or already answered), after `delay` ticks of the delivery scheduler when it has one.
    case respond(age: Int, answer: Answer, queue: Int, delay: Int)
    /// Answers the `age`-th most recent request from inside the next state notification: while a refresh
    /// is announced, the load it superseded is not disposed yet, so the answer reaches the engine, whose
    /// generation check must drop it.
    case respondWhenStateChanges(age: Int, answer: Answer)
    /// Calls the paginator from inside the next items notification (reentrancy).
    case whenItemsChange(Call)
    /// Advances the delivery scheduler by `ticks` (0 runs what is due).
    case advance(ticks: Int)
    /// Runs the delivery scheduler until it has nothing left.
    case runScheduler
    /// Moves the policy's clock (timeouts and automatic retries) on by `seconds`.
    case advanceClock(seconds: Int)
    /// Releases the paginator and starts a fresh one.
    case release
    /// Saves the list shown (`savedState`, through JSON) and restores a second paginator from it, which
    /// then gets the same calls and answers as the first and must agree with it at every step. Nothing
    /// happens unless the list is settled: shown, nothing loading or failed, no notification pending.
    case saveAndRestore

    /// A local edit of the rows.
    enum EditKind: Equatable {
        case insert, remove, replace
    }

    /// A paginator method.
    enum Call: Equatable, CustomStringConvertible {
        case refresh(query: Int?)
        case reloadAll
        case refreshAround(row: Int)
        case loadNext
        case loadPrevious
        case preload(row: Int)
        case retry
        case cancel
        case edit(EditKind, row: Int)

        var description: String {
            switch self {
            case .refresh(let query): "refresh(\(query.map(String.init) ?? "same"))"
            case .reloadAll: "reloadAll"
            case .refreshAround(let row): "refreshAround(\(row))"
            case .loadNext: "loadNext"
            case .loadPrevious: "loadPrevious"
            case .preload(let row): "preload(\(row))"
            case .retry: "retry"
            case .cancel: "cancel"
            case .edit(let kind, let row): "\(kind)(\(row))"
            }
        }
    }

    /// What the server sends.
    enum Answer: Equatable, CaseIterable {
        /// A full page, then completion.
        case page
        /// Fewer items than asked (a server cap).
        case shortPage
        /// No items: the end, whatever the total says.
        case emptyPage
        /// A page that starts two items early, repeating items already loaded (drift).
        case overlapping
        /// The model's bad page: a negative total (offset), or a next cursor already used (cursor).
        case badKey
        /// An error before any page.
        case failure
        /// Completion without a page.
        case noPage
        /// Two pages: only the first counts.
        case twoPages
        /// A page then an error: only the page counts.
        case pageThenFailure
        /// A page that never completes.
        case pageOnly
    }

    var description: String {
        func on(_ queue: Int) -> String { queue == 0 ? "" : " on q\(queue)" }
        switch self {
        case .call(let call, let queue): return "\(call)\(on(queue))"
        case .respond(let age, let answer, let queue, let delay):
            return "respond(#\(age), \(answer)\(delay > 0 ? ", after \(delay)" : ""))\(on(queue))"
        case .respondWhenStateChanges(let age, let answer): return "onNextState(respond(#\(age), \(answer)))"
        case .whenItemsChange(let call): return "onNextItems(\(call))"
        case .advance(let ticks): return "advance(\(ticks))"
        case .runScheduler: return "run"
        case .advanceClock(let seconds): return "clock(+\(seconds)s)"
        case .release: return "release"
        case .saveAndRestore: return "saveAndRestore"
        }
    }

    /// Simpler variants of this operation (never itself), tried by the shrinker.
    var simplifications: [PagingOperation] {
        let variants: [PagingOperation] =
            switch self {
            case .call(let call, let queue) where queue != 0: [.call(call, queue: 0)]
            case .respond(let age, let answer, let queue, let delay) where queue != 0 || delay != 0 || age != 0:
                [
                    .respond(age: age, answer: answer, queue: 0, delay: 0),
                    .respond(age: 0, answer: answer, queue: queue, delay: delay),
                ]
            default: []
            }
        return variants.filter { $0 != self }
    }

    static func random(in configuration: ModelConfiguration, using generator: inout SplitMix) -> PagingOperation {
        func queue() -> Int {
            Int.random(in: 0..<4, using: &generator) == 0 ? Int.random(in: 1...3, using: &generator) : 0
        }
        func age() -> Int {
            switch Int.random(in: 0..<20, using: &generator) {
            case 0..<13: 0
            case 13..<16: 1
            default: Int.random(in: 2..<8, using: &generator)
            }
        }
        func answer() -> Answer {
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<28: .page
            case 28..<36: .shortPage
            case 36..<41: .emptyPage
            case 41..<53: .overlapping
            case 53..<61: .badKey
            case 61..<71: .failure
            case 71..<77: .noPage
            case 77..<83: .twoPages
            case 83..<89: .pageThenFailure
            default: .pageOnly
            }
        }
        func query() -> Int? {
            Bool.random(using: &generator) ? nil : Int.random(in: 0..<PagingReference.sizes.count, using: &generator)
        }
        func row() -> Int { Int.random(in: -2..<26, using: &generator) }
        func edit() -> Call {
            let kinds: [EditKind] = [.insert, .remove, .replace]
            return .edit(
                kinds[Int.random(in: 0..<3, using: &generator)], row: Int.random(in: 0..<30, using: &generator))
        }
        if configuration.restores, Int.random(in: 0..<12, using: &generator) == 0 { return .saveAndRestore }
        if configuration.bounded, Bool.random(using: &generator) {
            // Scrolling: a row near either end shown, or the latest request answered with a full page, so
            // that pages go over the bound and are scrolled back to.
            let rows = [0, 1, 2, 7, 8, 9, 12, 13, 14]
            return Bool.random(using: &generator)
                ? .call(.preload(row: rows[Int.random(in: 0..<rows.count, using: &generator)]), queue: queue())
                : .respond(age: 0, answer: .page, queue: queue(), delay: 0)
        }
        var roll = Int.random(in: 0..<100, using: &generator)
        if configuration.usesPolicies {
            if Int.random(in: 0..<8, using: &generator) == 0 {
                return .advanceClock(seconds: Int.random(in: 1...6, using: &generator))
            }
            // Calls from inside a synchronous notification start loads, and so their timers, in an order
            // that differs from the calls' (the outer load's timer is scheduled after the inner one's).
            if !configuration.delaysDelivery, (36..<42).contains(roll) { roll = 50 }
        }
        // A preload that drops pages notifies before it starts its load: a call from inside that
        // synchronous notification starts its own load first, in an order that differs from the calls'.
        if configuration.bounded, !configuration.delaysDelivery, (39..<42).contains(roll) { roll = 50 }
        switch roll {
        case 0..<5: return .call(.refresh(query: query()), queue: queue())
        case 5..<7: return .call(.reloadAll, queue: queue())
        case 7..<8: return .call(.refreshAround(row: row()), queue: queue())
        case 8..<14: return .call(.loadNext, queue: queue())
        case 14..<19: return .call(.loadPrevious, queue: queue())
        case 19..<28: return .call(.preload(row: row()), queue: queue())
        case 28..<31: return .call(.retry, queue: queue())
        case 31..<33: return .call(.cancel, queue: queue())
        case 33..<36: return .call(edit(), queue: queue())
        case 36..<39: return .respondWhenStateChanges(age: age(), answer: answer())
        case 39..<42:
            let calls: [Call] = [
                .loadNext, .loadPrevious, .preload(row: row()), .refresh(query: query()), .retry, .cancel, edit(),
            ]
            return .whenItemsChange(calls[Int.random(in: 0..<calls.count, using: &generator)])
        case 42..<50 where configuration.delaysDelivery:
            return roll < 47 ? .advance(ticks: Int.random(in: 0..<3, using: &generator)) : .runScheduler
        case 99: return .release
        default:
            let delay =
                configuration.delaysDelivery && Int.random(in: 0..<3, using: &generator) == 0
                ? Int.random(in: 1...3, using: &generator) : 0
            return .respond(age: age(), answer: answer(), queue: queue(), delay: delay)
        }
    }
}
