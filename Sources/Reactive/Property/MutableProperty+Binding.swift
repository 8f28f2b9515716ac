infix operator <~ : AssignmentPrecedence

extension MutableProperty {
    /// Sets the property to every value `source` sends, until the source terminates or the property
    /// is released.
    ///
    /// - Returns: A disposable that ends the binding early.
    @discardableResult
    public func bind(to source: Signal<Value, Never>) -> any Disposable {
        let disposable = source.observeValues { [weak self] value in self?.value = value }
        lifetime += disposable
        return disposable
    }

    /// Starts `source` and sets the property to every value it sends, until it terminates or the
    /// property is released.
    @discardableResult
    public func bind(to source: SignalProducer<Value, Never>) -> any Disposable {
        let disposable = source.startWithValues { [weak self] value in self?.value = value }
        lifetime += disposable
        return disposable
    }

    /// Keeps the property equal to `source`: its current value at once, then every change.
    @discardableResult
    public func bind(to source: Property<Value>) -> any Disposable {
        bind(to: source.producer)
    }

    /// Binds `property` to `source`; see `bind(to:)-(Signal<Value,Never>)`.
    @discardableResult
    public static func <~ (property: MutableProperty, source: Signal<Value, Never>) -> any Disposable {
        property.bind(to: source)
    }

    /// Binds `property` to `source`; see `bind(to:)-(SignalProducer<Value,Never>)`.
    @discardableResult
    public static func <~ (property: MutableProperty, source: SignalProducer<Value, Never>) -> any Disposable {
        property.bind(to: source)
    }

    /// Binds `property` to `source`; see `bind(to:)-(Property<Value>)`.
    @discardableResult
    public static func <~ (property: MutableProperty, source: Property<Value>) -> any Disposable {
        property.bind(to: source)
    }
}
