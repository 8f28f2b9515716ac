import Reactive
import Stapler

/// What a snapshot's operations do when a load fails.
public enum SnapshotErrorHandling: Sendable, Hashable {
    /// Rethrow it: ``TestKitError/loadFailed(direction:key:underlying:)``, naming its edge and key.
    case `throw`
    /// Retry the failed edge through the paginator's `retry()`, up to `max` times per request, then throw
    /// ``TestKitError/retriesExhausted(direction:key:attempts:lastError:)``.
    case retry(max: Int)
    /// Stop the operations and return the rows shown so far, with the failure in
    /// ``ShownRows/failures``: never silently.
    case returnShown
}

/// A load that failed, as a snapshot reports it: its edge, the key of its request and its error, each
/// by description.
public struct LoadFailure: Sendable, Hashable, CustomStringConvertible {
    /// The edge whose load failed.
    public let direction: PageDirection
    /// The key of the failed request, by description.
    public let key: String
    /// The error, by description.
    public let error: String

    /// Creates a failure of the load of `key` at `direction` with `error`.
    ///
    /// - Parameters:
    ///   - direction: The edge whose load failed.
    ///   - key: The key of the failed request, by description.
    ///   - error: The error, by description.
    public init(_ direction: PageDirection, key: String, error: String) {
        self.direction = direction
        self.key = key
        self.error = error
    }

    /// A failed load at the bottom, for `key`, with `error`.
    public static func append(key: some Sendable, _ error: any Error) -> LoadFailure {
        LoadFailure(.append, key: String(describing: key), error: String(describing: error))
    }

    /// A failed load at the top, for `key`, with `error`.
    public static func prepend(key: some Sendable, _ error: any Error) -> LoadFailure {
        LoadFailure(.prepend, key: String(describing: key), error: String(describing: error))
    }

    /// A failed refresh, for `key`, with `error`.
    public static func refresh(key: some Sendable, _ error: any Error) -> LoadFailure {
        LoadFailure(.refresh, key: String(describing: key), error: String(describing: error))
    }

    /// The failure, in words.
    public var description: String { "\(direction)(key: \(key), \(error))" }
}

/// The rows a paginator shows once its snapshot's operations ran and it settled.
public struct ShownRows<Item: Sendable>: Sendable {
    /// The loaded rows, in order (placeholders left out).
    public let items: [Item]
    /// The failures met with ``SnapshotErrorHandling/returnShown``; empty otherwise.
    public let failures: [LoadFailure]
}

extension Paginator {
    /// Runs `operations` on a ``StaplerTesting/ScrollDriver`` over this paginator, as a user would scroll its list, and
    /// returns the rows once it is settled.
    ///
    /// ```swift
    /// let shown = try await paginator.settledRows { try await $0.scroll(to: 120) }
    /// #expect(shown.items.count == 140)
    /// ```
    ///
    /// A paginator that has not loaded yet is refreshed first. The driver reads the paginator without
    /// observing it and calls only its public API; nothing of the run stays behind.
    ///
    /// - Parameters:
    ///   - onError: What a failed load does; by default it is rethrown.
    ///   - timeout: How long each wait may take in real time for work that no scheduler the kit drives will
    ///     finish.
    ///   - scheduler: The test scheduler the paginator's sources, policy or deliveries run on, if any.
    ///   - operations: What to do with the list; nothing by default (the rows of the first page).
    /// - Returns: The loaded rows, and the failures ``StaplerTesting/SnapshotErrorHandling/returnShown`` returned.
    /// - Throws: A ``StaplerTesting/TestKitError``, or what `operations` throws.
    nonisolated(nonsending) public func settledRows(
        onError: SnapshotErrorHandling = .throw, timeout: Duration = .seconds(10),
        advancing scheduler: TestScheduler? = nil,
        _ operations: (ScrollDriver<Item, Key, Query, Metadata, Failure>) async throws -> Void = { _ in }
    ) async throws -> ShownRows<Item> {
        if case .retry(let max) = onError, max < 0 {
            fatalError("Paginator.settledRows(onError:): retry(max:) must not be negative, got \(max)")
        }
        let driver = ScrollDriver(self, onError: onError, timeout: timeout, scheduler: scheduler)
        do {
            // A paginator that has not started (nothing pending, nothing delivered yet) is refreshed; one whose
            // first load is queued but not delivered is not asked twice.
            if case .uninitialized = state.value, pendingWork().isEmpty { started { refresh() } }
            try await driver.wait()
            try await operations(driver)
            try await driver.wait()
        } catch is StopWithShownRows {}
        return ShownRows(items: Array(items.value), failures: driver.failures)
    }
}
