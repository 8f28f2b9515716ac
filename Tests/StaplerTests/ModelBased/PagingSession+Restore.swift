import Dispatch
import Foundation
import Reactive
import TestSupport

@testable import Stapler

/// A paginator restored from the list the session's paginator saved, driven with the same calls and the
/// same answers (to its own requests), which must agree with it at every step.
final class RestoredMirror: Sendable {
    let subject: PagingSession.Subject
    /// The restored paginator's requests, answered as the session's requests of the same age are.
    let requests: Locked<[PagingSession.Request]>
    /// How many requests the session's paginator had made when the list was saved.
    let firstSerial: Int
    let stateHook = Locked<(@Sendable () -> Void)?>(nil)
    let itemsHook = Locked<(@Sendable () -> Void)?>(nil)
    /// The edits the session's paginator made from inside a notification, with their outcomes, for the
    /// restored paginator to make from inside its own.
    let edits = Locked<[(value: Int?, outcome: EditOutcome?)]>([])
    /// Set when a notification made a call the two cannot agree on (a query change beside a query
    /// cache): the restored paginator is released at the next step and not compared before.
    let parted = Locked(false)

    init(subject: PagingSession.Subject, requests: Locked<[PagingSession.Request]>, firstSerial: Int) {
        self.subject = subject
        self.requests = requests
        self.firstSerial = firstSerial
    }

    /// The request `age` steps back from the latest; `nil` past the first (the session's paginator then
    /// answers one made before the save, which no load waits for).
    func request(age: Int) -> PagingSession.Request? {
        let all = requests.value
        return age < all.count ? all[all.count - 1 - age] : nil
    }
}

extension PagingSession {
    /// What a call did on the session's paginator: the value an edit put in, and its outcome.
    typealias CallResult = (value: Int?, outcome: EditOutcome?)

    /// Does to the restored paginator, if any, what `operation` did to the session's.
    func mirror(_ operation: PagingOperation, _ result: CallResult) -> String? {
        if case .saveAndRestore = operation { return saveAndRestore() }
        guard let mirror = restored.value else { return nil }
        switch operation {
        case .call(let call, let queue):
            perform(call, on: mirror, result, queue: queue)
        case .respond(let age, let answer, let queue, let delay):
            guard let request = mirror.request(age: age) else { break }
            if delay > 0, let scheduler = scheduler.value {
                scheduler.schedule(after: .seconds(delay)) { [weak self] in
                    self?.send(answer, to: request, on: queue)
                }
            } else {
                send(answer, to: request, on: queue)
            }
        case .respondWhenStateChanges(let age, let answer):
            mirror.stateHook.value = { [weak self, weak mirror] in
                guard let self, let request = mirror?.request(age: age) else { return }
                self.send(answer, to: request, on: 0)
            }
        case .whenItemsChange(let call):
            mirror.itemsHook.value = { [weak self, weak mirror] in
                guard let self, let mirror else { return }
                // Inside a notification the session's query cache has already changed: any query change
                // beside a cache parts the two.
                if self.configuration.usesPolicies, case .refresh(_?) = call { return mirror.parted.value = true }
                let result = mirror.edits.withLock { $0.isEmpty ? (nil, nil) : $0.removeFirst() }
                self.perform(call, on: mirror, result, queue: 0)
            }
        case .release:
            return releaseRestored()
        case .advance, .runScheduler, .advanceClock, .saveAndRestore:
            break
        }
        return nil
    }

    /// Before `operation` reaches the session's paginator: releases the restored one if the two part
    /// ways, as they do when the query goes back to a list the session's query cache kept (a restored
    /// paginator has no query cache).
    func prepareMirror(_ operation: PagingOperation) -> String? {
        guard let parted = restored.value?.parted.value else { return nil }
        if parted { return releaseRestored() }
        if case .call(let call, _) = operation, partsWays(call) { return releaseRestored() }
        return nil
    }

    /// Whether `call` may show a list the session's query cache kept.
    private func partsWays(_ call: PagingOperation.Call) -> Bool {
        guard configuration.usesPolicies, case .refresh(let query?) = call else { return false }
        return reference.withLock { reference in reference.cache.contains { $0.query == query } }
    }

    /// Makes `call` on the restored paginator (on `queue`); an edit puts in the same value as on the
    /// session's paginator and must have the same outcome.
    private func perform(_ call: PagingOperation.Call, on mirror: RestoredMirror, _ result: CallResult, queue: Int) {
        let body: @Sendable () -> Void = { [self] in
            let subject = mirror.subject
            switch call {
            case .refresh(let query): subject.refresh(query)
            case .reloadAll: subject.refreshInMode(.reloadAll)
            case .refreshAround(let row): subject.refreshInMode(.around(index: row))
            case .loadNext: subject.loadNext()
            case .loadPrevious: subject.loadPrevious()
            case .preload(let row): subject.preload(row)
            case .retry: subject.retry()
            case .cancel: subject.cancel()
            case .edit(let kind, let row):
                // An edit the session did not make (the reference could not tell its row) is not made here.
                guard result.outcome != nil else { return }
                let outcome = subject.edit(kind, row, result.value ?? -1)
                if outcome != result.outcome {
                    observedFailures.append(
                        "\(call) was \(outcome) on the restored paginator, \(result.outcome.map { "\($0)" } ?? "none") on the saved one"
                    )
                }
            }
        }
        if queue == 0 { body() } else { queues[queue - 1].sync(execute: body) }
    }

    /// Sends `answer` to a request of the restored paginator: the page the session's paginator got.
    private func send(_ answer: PagingOperation.Answer, to request: Request, on queue: Int) {
        let body: @Sendable () -> Void = {
            Self.send(answer, Self.reply(to: request, with: answer, model: self.configuration.model), to: request)
        }
        if queue == 0 { body() } else { queues[queue - 1].sync(execute: body) }
    }

    /// Saves the list shown through JSON and restores a second paginator from it, when the list is
    /// settled (shown, nothing loading, failed or retrying, no notification due or hooked, no kept list
    /// of another query); a restored paginator already there is released first.
    private func saveAndRestore() -> String? {
        let settled = reference.withLock { reference in
            reference.hasList && reference.pending.isEmpty && reference.refreshSlot == .idle
                && reference.prependSlot == .idle && reference.appendSlot == .idle && reference.scheduledRetry == nil
                && reference.cache.isEmpty
        }
        guard settled, stateHook.value == nil, itemsHook.value == nil, scheduler.value?.nextDue == nil,
            let object = subject.value?.object
        else { return nil }
        if let failure = releaseRestored() { return failure }
        let requests = Locked<[Request]>([])
        let made: Result<Subject, any Error>
        switch configuration.model {
        case .offset:
            made = Result { try restoreOffset(from: object as! OffsetPaginator, requests: requests, endKey: 1_000) }
        case .cursor:
            made = Result { try restoreCursor(from: object as! CursorPaginator, requests: requests, endKey: "c1000") }
        }
        switch made {
        case .success(let subject):
            restored.value = RestoredMirror(
                subject: subject, requests: requests, firstSerial: self.requests.value.count)
            // A restored paginator that delivers on a scheduler shows its list when the scheduler runs (the
            // saved one has nothing waiting there): before the next operation, as a main queue would.
            scheduler.value?.run()
            return nil
        case .failure(let error):
            return "the saved list did not restore: \(error)"
        }
    }

    /// The options of a restored paginator: the first paginator's, on the current scheduler and clock.
    private func restoredOptions<Key>() -> PagingOptions<Int, Key> {
        PagingOptions(
            pageSize: PagingReference.pageSize, prefetchDistance: PagingReference.prefetchDistance,
            deduplication: configuration.deduplicates ? .by(\.self) : nil, deliveringOn: scheduler.value,
            policy: Self.policy(on: policyClock.value),
            maxPages: configuration.bounded ? PagingReference.maxPages : nil,
            placeholders: configuration.placeholderOption)
    }

    private func restoreOffset(
        from paginator: OffsetPaginator, requests: Locked<[Request]>, endKey: Int
    ) throws -> Subject {
        let saved = try roundTrip(paginator.savedState, endKey: endKey)
        let restored = try Paginator(
            restoring: saved, source: Self.offsetSource(recordingIn: requests), options: restoredOptions())
        return subject(
            for: restored, key: { $0 }, stateHook: restoredStateHook, itemsHook: restoredItemsHook, restored: true)
    }

    private func restoreCursor(
        from paginator: CursorPaginator, requests: Locked<[Request]>, endKey: String?
    ) throws -> Subject {
        let saved = try roundTrip(paginator.savedState, endKey: endKey)
        let restored = try Paginator(
            restoring: saved, source: Self.cursorSource(recordingIn: requests), options: restoredOptions())
        return subject(
            for: restored, key: { $0 == 0 ? nil : "c\($0)" }, stateHook: restoredStateHook,
            itemsHook: restoredItemsHook, restored: true)
    }

    /// The restored paginator's hooks (the mirror is made after its paginator, so they are read late).
    private var restoredStateHook: @Sendable () -> Void {
        { [weak self] in if let hook = self?.restored.value?.stateHook { Self.fire(hook) } }
    }

    private var restoredItemsHook: @Sendable () -> Void {
        { [weak self] in if let hook = self?.restored.value?.itemsHook { Self.fire(hook) } }
    }

    /// `saved` through a JSON encoder and decoder, which must give it back unchanged; the mutation that
    /// loses the end gives the bottom a key instead.
    private func roundTrip<Key: Codable, Metadata: Codable & Equatable>(
        _ saved: PagingSavedState<Int, Key, Int, Metadata>?, endKey: Key
    ) throws -> PagingSavedState<Int, Key, Int, Metadata> {
        guard let saved else { throw RestoreError.corrupt("no saved list") }
        let data = try JSONEncoder().encode(saved)
        let decoded = try JSONDecoder().decode(PagingSavedState<Int, Key, Int, Metadata>.self, from: data)
        guard decoded == saved else { throw RestoreError.corrupt("the decoded list differs from the saved one") }
        guard mutation == .restoresWithoutTheEnd, decoded.bottomEdge == .end else { return decoded }
        return PagingSavedState(
            model: decoded.model, query: decoded.query, openingKey: decoded.openingKey, pages: decoded.pages,
            topEdge: decoded.topEdge, bottomEdge: .key(endKey), droppedAbove: decoded.droppedAbove,
            droppedAboveEdge: decoded.droppedAboveEdge, droppedBelow: decoded.droppedBelow,
            droppedBelowEdge: decoded.droppedBelowEdge, total: decoded.total, metadata: decoded.metadata,
            listWasEmpty: decoded.listWasEmpty, stoppedWithoutProgress: decoded.stoppedWithoutProgress,
            accessedRow: decoded.lastShownRow, firstPageIndex: decoded.firstPageIndex,
            removedByEdits: decoded.removedByEdits)
    }

    /// How the reference's paginator dropped, reloaded and jumped so far, and whether a restored
    /// paginator runs alongside it (for the coverage test).
    var events: (bound: PagingReference.BoundEvents, restored: Bool) {
        (reference.value.boundEvents, restored.value != nil)
    }

    /// Releases the restored paginator, which must go with every load it started.
    func releaseRestored() -> String? {
        weak var released: AnyObject?
        let requests: Locked<[Request]>
        do {
            guard let mirror = restored.value else { return nil }
            released = mirror.subject.object
            requests = mirror.requests
            restored.value = nil
        }
        if released != nil { return "the released restored paginator is still alive" }
        if requests.value.contains(where: { !$0.ended.value }) {
            return "a load of the released restored paginator was not disposed"
        }
        return nil
    }

    /// The restored paginator agrees with the session's: the same rows, state, query, pages, total, end
    /// flags, load states and slots, and the same requests since the save (keys, queries, in flight).
    func checkRestored(against observed: Observed, slots: Slots) -> String? {
        guard let mirror = restored.value, !mirror.parted.value else { return nil }
        let mine = mirror.requests.value
        let theirs = requests.value.dropFirst(mirror.firstSerial)
        guard mine.count == theirs.count else {
            return "the restored paginator made \(mine.count) requests, the saved one \(theirs.count)"
        }
        for (restored, saved) in zip(mine, theirs)
        where restored.key != saved.key || restored.query != saved.query || restored.ended.value != saved.ended.value {
            return "restored request (key \(restored.key), query \(restored.query), ended \(restored.ended.value)), "
                + "saved (key \(saved.key), query \(saved.query), ended \(saved.ended.value))"
        }
        let restored = mirror.subject.observed()
        if restored != observed { return "restored paginator shows \(restored), the saved one \(observed)" }
        let restoredSlots = configuration.placeholders ? mirror.subject.slots() : Slots()
        if restoredSlots != slots { return "restored slots \(restoredSlots), the saved one's \(slots)" }
        return nil
    }
}
