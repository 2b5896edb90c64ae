/// An array kept in blocks of 65,536 elements: a million units or slots without one large buffer copied (and held
/// twice) each time it grows, and never more than one block unused.
struct BlockArray<Element> {
    private var blocks: [[Element]] = []
    /// Elements stored.
    private(set) var count = 0

    /// An empty array.
    init() {}

    /// Adds `element` at the end.
    mutating func append(_ element: Element) {
        if count & 0xFFFF == 0 {
            var block: [Element] = []
            block.reserveCapacity(1 << 16)
            blocks.append(block)
        }
        blocks[count >> 16].append(element)
        count += 1
    }

    subscript(index: Int) -> Element {
        get { blocks[index >> 16][index & 0xFFFF] }
        _modify { yield &blocks[index >> 16][index & 0xFFFF] }
    }
}
