/// An array kept in blocks of 65,536 elements: a million units or slots without one large buffer copied (and held
/// twice) each time it grows, and never more than one block unused. The elements are plain values kept in raw
/// blocks (`RawBlocks`, shared by copies until one changes): reading one costs two loads and no reference count.
struct BlockArray<Element: BitwiseCopyable> {
    private var owner = RawBlocks(alignment: max(16, MemoryLayout<Element>.alignment))
    /// `owner.table`, kept here so a read touches no class.
    private var table: UnsafeMutablePointer<UnsafeMutableRawPointer>
    /// Elements stored.
    private(set) var count = 0

    /// An empty array.
    init() {
        table = owner.table
    }

    /// Adds `element` at the end.
    mutating func append(_ element: Element) {
        makeUnique()
        if count & 0xFFFF == 0 {
            _ = owner.add(bytes: (1 << 16) * MemoryLayout<Element>.stride)
            table = owner.table
        }
        address(count).initialize(to: element)
        count += 1
    }

    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "index \(index) of \(count)")
            return address(index).pointee
        }
        _modify {
            precondition(index >= 0 && index < count, "index \(index) of \(count)")
            makeUnique()
            yield &address(index).pointee
        }
    }

    @inline(__always)
    private func address(_ index: Int) -> UnsafeMutablePointer<Element> {
        table[index >> 16].assumingMemoryBound(to: Element.self) + (index & 0xFFFF)
    }

    /// Blocks of this array's own before a change, when a copy shares them.
    @inline(__always)
    private mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&owner) else { return }
        owner = owner.copy()
        table = owner.table
    }
}
