import Foundation

/// A value guarded by an `NSLock`, for test bookkeeping shared with observers on other threads.
///
/// Tests must never use it to serialise the system under test, only to record what it did.
public final class Locked<Value>: @unchecked Sendable {
    // Guarded by `lock`.
    private var stored: Value
    private let lock = NSLock()

    public init(_ value: Value) {
        stored = value
    }

    public var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    @discardableResult
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&stored) }
    }
}

extension Locked where Value: RangeReplaceableCollection {
    public func append(_ element: Value.Element) {
        withLock { $0.append(element) }
    }
}

extension Locked where Value: AdditiveArithmetic {
    public func increment(by amount: Value) {
        withLock { $0 += amount }
    }
}
