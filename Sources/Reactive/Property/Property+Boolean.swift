extension Property where Value == Bool {
    /// A property holding the opposite of this property's value.
    ///
    /// ```swift
    /// let isIdle = action.isExecuting.negate()
    /// ```
    ///
    /// - Returns: The negated property; it completes when this one does.
    public func negate() -> Property<Bool> {
        map { !$0 }
    }

    /// A property that is `true` when both this property and `other` are.
    ///
    /// - Parameter other: The other condition.
    /// - Returns: The conjunction, updated when either side changes; it completes once both have.
    public func and(_ other: Property<Bool>) -> Property<Bool> {
        combineLatest(with: other).map { $0 && $1 }
    }

    /// A property that is `true` when this property or `other` is.
    ///
    /// - Parameter other: The other condition.
    /// - Returns: The disjunction, updated when either side changes; it completes once both have.
    public func or(_ other: Property<Bool>) -> Property<Bool> {
        combineLatest(with: other).map { $0 || $1 }
    }
}
