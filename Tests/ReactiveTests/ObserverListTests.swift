import Testing

@testable import Reactive

/// A signal's list of observers, walked by its drainer while others detach: a removal never makes the
/// walk skip or repeat an entry, whether it takes the last entry or one in the middle.
@Suite("ObserverList")
struct ObserverListTests {
    /// Entries of one signal, each with its own handler; the signal is kept so that the entries' core lives.
    private func entries(_ count: Int) -> (Signal<Int, Never>, [ObserverEntry]) {
        let (signal, _) = Signal<Int, Never>.pipe()
        let made = (0..<count).map { _ in
            ObserverEntry(handler: Signal<Int, Never>.Observer({ _ in }), core: signal.core)
        }
        return (signal, made)
    }

    /// A list holding `entries` whose walk has just started.
    private func listWalking(_ entries: some Sequence<ObserverEntry>) -> ObserverList {
        var list = ObserverList(hasOutput: true)
        list.entries.append(contentsOf: entries)
        list.rewind()
        return list
    }

    /// The entries a walk from the cursor visits, for a value with sequence number 0.
    private func rest(of list: inout ObserverList, in entries: [ObserverEntry]) -> [Int] {
        var visited: [Int] = []
        while let handler = list.nextValueRecipient(sequence: 0) {
            let object = handler.takeUnretainedValue()
            visited.append(entries.firstIndex { $0.handler === object } ?? -1)
        }
        return visited
    }

    @Test("removing the last entry after the walk passed it moves the cursor back: a later entry is walked")
    func removingTheLastPassedEntry() {
        let (signal, made) = entries(3)
        var list = listWalking(made.prefix(2))
        #expect(rest(of: &list, in: made) == [0, 1])
        #expect(list.remove(made[1]) != nil)
        #expect(list.cursor == 1)
        list.entries.append(made[2])
        #expect(rest(of: &list, in: made) == [2])
        withExtendedLifetime(signal) {}
    }

    @Test("removing the last entry before the walk reaches it leaves the cursor where it is")
    func removingTheLastEntryAhead() {
        let (signal, made) = entries(3)
        var list = listWalking(made)
        _ = list.nextValueRecipient(sequence: 0)
        #expect(list.remove(made[2]) != nil)
        #expect(list.cursor == 1)
        #expect(rest(of: &list, in: made) == [1])
        withExtendedLifetime(signal) {}
    }

    @Test("removing an entry the walk passed, in the middle, moves the cursor back: none is skipped")
    func removingAPassedEntryInTheMiddle() {
        let (signal, made) = entries(3)
        var list = listWalking(made)
        _ = list.nextValueRecipient(sequence: 0)
        _ = list.nextValueRecipient(sequence: 0)
        #expect(list.remove(made[0]) != nil)
        #expect(list.cursor == 1)
        #expect(rest(of: &list, in: made) == [2])
        #expect(list.remove(made[0]) == nil)
        withExtendedLifetime(signal) {}
    }
}
