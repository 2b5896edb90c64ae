/// Blocks of raw memory, freed with their owner: where `BlockArray` and `ByteArena` keep their values. The owner
/// of a value type's blocks is shared by its copies until one of them changes (`isKnownUniquelyReferenced`, then
/// `copy`); the value keeps the blocks' addresses itself, so a read follows two addresses and touches no reference
/// count.
public final class RawBlocks {
    /// Each block's address.
    public private(set) var table: UnsafeMutablePointer<UnsafeMutableRawPointer>
    /// Each block's size in bytes.
    private var sizes: [Int] = []
    private var capacity = 8
    /// The alignment of every block.
    public let alignment: Int

    /// No blocks yet; each one aligned to `alignment`.
    public init(alignment: Int = 16) {
        self.alignment = alignment
        table = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(capacity: capacity)
    }

    deinit {
        for index in sizes.indices { table[index].deallocate() }
        table.deallocate()
    }

    /// Blocks held.
    public var count: Int { sizes.count }

    /// Adds a block of `bytes` bytes (not initialised); returns its number.
    @discardableResult
    public func add(bytes: Int) -> Int {
        if sizes.count == capacity {
            let grown = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: table, count: sizes.count)
            table.deallocate()
            table = grown
            capacity *= 2
        }
        (table + sizes.count).initialize(to: UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes), alignment: alignment))
        sizes.append(bytes)
        return sizes.count - 1
    }

    /// Blocks of their own holding the same bytes.
    public func copy() -> RawBlocks {
        let copy = RawBlocks(alignment: alignment)
        for (index, size) in sizes.enumerated() {
            let number = copy.add(bytes: size)
            copy.table[number].copyMemory(from: table[index], byteCount: size)
        }
        return copy
    }
}
