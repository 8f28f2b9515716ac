import Testing

@testable import Stapler

/// The values the paging machine's state is made of: the shown list, the edges and lanes, the refresh
/// undo, each driven directly.
@Suite("Paging machine state")
struct MachineStateTests {
    typealias Machine = PagingMachine<Int, Int, String, Void, ServerError>

    /// A machine showing rows 0..<20 in two pages of query "q", its bottom asking for 20.
    static func twoPages() -> Machine {
        var machine = Machine(firstKey: 0, pageSize: 10, query: "q")
        _ = machine.receiveRefresh(query: nil)
        _ = machine.receiveLoaded(
            ticket: machine.inFlight!.ticket, page: Page(items: Array(0..<10), nextKey: 10), identities: nil)
        _ = machine.receiveLoadNext(retryingFailedPage: false)
        _ = machine.receiveLoaded(
            ticket: machine.inFlight!.ticket, page: Page(items: Array(10..<20), nextKey: 20), identities: nil)
        return machine
    }

    @Test("A query change blanks the list, and cancelling its refresh brings the same list back, whole")
    func blankedListComesBackWhole() {
        var machine = Self.twoPages()
        let shown = machine.list.items
        _ = machine.receiveRefresh(.restart, query: "B", blanking: true)
        #expect(machine.snapshot.items.isEmpty)
        #expect(!machine.list.isShown)
        #expect(machine.refreshUndo?.blankedList?.items.isIdentical(to: shown) == true)
        _ = machine.receiveCancel(generation: nil)
        #expect(machine.refreshUndo == nil)
        #expect(machine.list.isShown)
        #expect(machine.snapshot.items.isIdentical(to: shown))
        #expect(machine.list.pageKeys.count == 2)
        #expect(machine.list.bottom.key == 20)
        #expect(machine.list.query == "q" && machine.query == "q")
        #expect(machine.snapshot.state == .data)
    }

    @Test("The refresh undo is held exactly while a refresh is in flight, and restores a failed refresh")
    func undoHeldWhileARefreshIsInFlight() {
        var machine = Machine(firstKey: 0, pageSize: 10, query: "q")
        #expect(machine.refreshUndo == nil)
        _ = machine.receiveRefresh(query: nil)
        #expect(machine.refreshUndo?.phase.load == nil)
        _ = machine.receiveFailed(ticket: machine.inFlight!.ticket, error: .source(.unavailable))
        #expect(machine.refreshUndo == nil)
        _ = machine.receiveRetry()
        #expect(machine.refreshUndo?.phase.error != nil, "a retry's cancel goes back to the failure")
        _ = machine.receiveCancel(generation: nil)
        #expect(machine.refreshUndo == nil)
        #expect(machine.snapshot.state == .errorRefreshing(.source(.unavailable)))
        _ = machine.receiveRefresh(query: "B")
        _ = machine.receiveLoaded(
            ticket: machine.inFlight!.ticket, page: Page(items: [1], nextKey: nil), identities: nil)
        #expect(machine.refreshUndo == nil)
        #expect(machine.list.query == "B")
    }

    @Test("An edge and a list end are reached by direction, and changed in place")
    func edgesAndEndsByDirection() {
        var edges = Machine.Edges()
        edges[.prepend].idlePages = 2
        edges[.append].cancelled = true
        #expect(edges.top.idlePages == 2 && edges.bottom.idlePages == 0)
        #expect(edges.bottom.cancelled && !edges.top.cancelled)
        var list = Machine.ShownList(query: "q")
        list[end: .append].key = 5
        list[end: .prepend].dropped.push(PageKeys(key: 30, previousKey: 20, nextKey: 40), edgeKey: 20)
        #expect(list.bottom.key == 5 && list.top.key == nil)
        #expect(list.top.dropped.count == 1 && list.bottom.dropped.isEmpty)
    }

    @Test("Blanking drops the rows, pages and dropped pages, and keeps the keys, identities and total")
    func blankKeepsKeysAndDropsRows() {
        var machine = Self.twoPages()
        machine.list.top.dropped.push(PageKeys(key: -10, previousKey: nil, nextKey: 0), edgeKey: nil)
        machine.list.loadedIdentities = [ItemIdentity(1)]
        machine.list.total = 40
        var list = machine.list
        list.blank()
        #expect(list.items.isEmpty && list.pageKeys.count == 0 && list.top.dropped.isEmpty)
        #expect(!list.isShown && list.leadingCount == 0 && list.firstPageIndex == 0)
        #expect(list.bottom.key == 20 && list.usedKeys.contains(10))
        #expect(list.loadedIdentities == [ItemIdentity(1)] && list.total == 40)
    }

    @Test("A key is claimed once, and never when a dropped page holds it")
    func claimRefusesDroppedKeys() {
        var list = Machine.ShownList(query: "q")
        list.bottom.dropped.push(PageKeys(key: 30, previousKey: 20, nextKey: 40), edgeKey: 40)
        let dropped = list.claim(30)
        let fresh = list.claim(50)
        let again = list.claim(50)
        #expect(!dropped && fresh && !again)
        #expect(list.usedKeys == [50])
    }
}
