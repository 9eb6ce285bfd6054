/// Which adapter to scan on.
public enum AdapterSelection: Hashable, Sendable, CustomStringConvertible {
    /// The first adapter that is up (what `hci_get_route(NULL)` picks).
    case first
    /// Adapter `hciN`.
    case index(UInt16)

    /// Parses `hci0`, `0`, or `nil`/empty for the first adapter.
    public init(_ text: String?) throws(BlueZScannerError) {
        guard let text, !text.isEmpty else {
            self = .first
            return
        }
        let digits = text.hasPrefix("hci") ? String(text.dropFirst(3)) : text
        guard let index = UInt16(digits) else { throw .invalidAdapterName(text) }
        self = .index(index)
    }

    /// `hciN`, or `the first adapter`.
    public var description: String {
        switch self {
        case .first: "the first adapter"
        case .index(let index): "hci\(index)"
        }
    }

    /// Picks the adapter from those present.
    ///
    /// - Throws: ``BlueZScannerError/noAdapters``, ``BlueZScannerError/noSuchAdapter(requested:available:)``,
    ///   or ``BlueZScannerError/adapterDown(adapter:)`` when the adapter (for `.first`: every adapter)
    ///   is down.
    public func choose(from adapters: [HCIAdapterInfo]) throws(BlueZScannerError) -> HCIAdapterInfo {
        switch self {
        case .index(let index):
            guard let adapter = adapters.first(where: { $0.index == index }) else {
                throw .noSuchAdapter(requested: description, available: adapters)
            }
            guard adapter.isUp else { throw .adapterDown(adapter: adapter.name) }
            return adapter
        case .first:
            guard let first = adapters.first else { throw .noAdapters }
            guard let up = adapters.first(where: \.isUp) else { throw .adapterDown(adapter: first.name) }
            return up
        }
    }
}
