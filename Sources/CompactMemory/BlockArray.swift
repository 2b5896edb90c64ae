/// An array kept in blocks of 65,536 elements: a million units or slots without one large buffer copied (and held
/// twice) each time it grows, and never more than one block unused. The elements are plain values kept in raw
/// blocks (`RawBlocks`, shared by copies until one changes): reading one costs two loads and no reference count.
public struct BlockArray<Element: BitwiseCopyable> {
    @usableFromInline var owner = RawBlocks(alignment: max(16, MemoryLayout<Element>.alignment))
    /// `owner.table`, kept here so a read touches no class.
    @usableFromInline var table: UnsafeMutablePointer<UnsafeMutableRawPointer>
    /// Elements stored.
    @usableFromInline var stored = 0

    /// An empty array.
    public init() {
        table = owner.table
    }

    /// Elements stored.
    @inlinable public var count: Int { stored }

    /// Adds `element` at the end.
    @inlinable
    public mutating func append(_ element: Element) {
        makeUnique()
        if stored & 0xFFFF == 0 {
            owner.add(bytes: (1 << 16) * MemoryLayout<Element>.stride)
            table = owner.table
        }
        address(stored).initialize(to: element)
        stored += 1
    }

    /// The element at `index`.
    @inlinable
    public subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < stored, "index \(index) of \(stored)")
            return address(index).pointee
        }
        _modify {
            precondition(index >= 0 && index < stored, "index \(index) of \(stored)")
            makeUnique()
            yield &address(index).pointee
        }
    }

    @inlinable @inline(__always)
    func address(_ index: Int) -> UnsafeMutablePointer<Element> {
        table[index >> 16].assumingMemoryBound(to: Element.self) + (index & 0xFFFF)
    }

    /// Blocks of this array's own before a change, when a copy shares them.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&owner) else { return }
        owner = owner.copy()
        table = owner.table
    }
}
