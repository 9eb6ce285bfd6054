/// Up to 24 bytes held inline (no heap storage), for short owned fields such as an Eddystone
/// URL's encoded bytes.
public struct InlineBytes: Hashable, Sendable {
    /// The largest number of bytes held.
    public static let capacity = 24
    private var word0: UInt64 = 0
    private var word1: UInt64 = 0
    private var word2: UInt64 = 0
    /// Number of bytes held.
    public private(set) var count: Int = 0

    /// Copies `bytes`; `nil` when there are more than ``capacity``.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= Self.capacity else { return nil }
        count = bytes.count
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: bytes) }
        (word0, word1, word2) = words
    }

    /// Copies `bytes`; `nil` when there are more than ``capacity``.
    public init?(_ bytes: [UInt8]) {
        guard let value = bytes.withUnsafeBytes({ InlineBytes($0) }) else { return nil }
        self = value
    }

    /// Calls `body` with a view of the bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let words = (word0, word1, word2)
        return try Swift.withUnsafeBytes(of: words) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// The bytes as an array (allocates).
    public var array: [UInt8] { withUnsafeBytes { Array($0) } }
}
