import Foundation

/// An unstable sort that takes no memory beyond the elements (the standard library's stable sort borrows a buffer
/// of half the elements: 8 MB for the million order entries of a month-end file, at the run's peak of memory):
/// introsort — quicksort on a median of three, insertion sort for short ranges, heapsort below `depthLimit` levels.
/// With `twoThreads`, the two sides of the first partition are sorted at the same time, one on a helper thread.
public enum InPlaceSort {
    /// Sorts `elements` by `less` (a strict weak order); `depthLimit` (default 2·log2 n) is where heapsort takes over;
    /// with `twoThreads` (and more than `twoThreadMinimum` elements) a helper thread sorts one side of the first
    /// partition while the caller sorts the other (`less` is then called on both threads).
    @inlinable
    public static func sort<Element>(_ elements: inout [Element], depthLimit: Int? = nil, twoThreads: Bool = false,
                              by less: (Element, Element) -> Bool) {
        let count = elements.count
        guard count > 1 else { return }
        let limit = depthLimit ?? 2 * (Int.bitWidth - count.leadingZeroBitCount)
        elements.withUnsafeMutableBufferPointer { buffer in
            guard twoThreads, count > twoThreadMinimum, limit > 0 else { return introsort(buffer, 0, count, limit, less) }
            let pivot = partition(buffer, 0, count, less)
            withoutActuallyEscaping(less) { less in
                let sides = TwoSides(elements: buffer, pivot: pivot, depth: limit - 1, less: less)
                DispatchQueue.concurrentPerform(iterations: 2) { side in sides.sort(side) }
            }
        }
    }

    /// The two sides of a partition, each sorted on its own thread (they share no element).
    @usableFromInline final class TwoSides<Element>: @unchecked Sendable {
        @usableFromInline let elements: UnsafeMutableBufferPointer<Element>
        @usableFromInline let pivot: Int
        @usableFromInline let depth: Int
        @usableFromInline let less: (Element, Element) -> Bool

        @inlinable
        init(elements: UnsafeMutableBufferPointer<Element>, pivot: Int, depth: Int, less: @escaping (Element, Element) -> Bool) {
            (self.elements, self.pivot, self.depth, self.less) = (elements, pivot, depth, less)
        }

        /// Sorts side 0 (before the pivot) or 1 (after it).
        @inlinable
        func sort(_ side: Int) {
            if side == 0 {
                introsort(elements, 0, pivot, depth, less)
            } else {
                introsort(elements, pivot + 1, elements.count, depth, less)
            }
        }
    }

    /// Below this many elements a second thread costs more than it saves.
    public static let twoThreadMinimum = 1 << 14

    @inlinable
    static func introsort<Element>(_ a: UnsafeMutableBufferPointer<Element>, _ low: Int, _ high: Int, _ depth: Int,
                                           _ less: (Element, Element) -> Bool) {
        var low = low, high = high, depth = depth
        while high - low > 16 {
            if depth == 0 {
                heapsort(a, low, high, less)
                return
            }
            depth -= 1
            let pivot = partition(a, low, high, less)
            // Recurse into the smaller side, loop on the larger: the stack stays O(log n).
            if pivot - low < high - pivot - 1 {
                introsort(a, low, pivot, depth, less)
                low = pivot + 1
            } else {
                introsort(a, pivot + 1, high, depth, less)
                high = pivot
            }
        }
        insertionSort(a, low, high, less)
    }

    /// Partitions `low..<high` around a median of three; returns the pivot's final place.
    @inlinable
    static func partition<Element>(_ a: UnsafeMutableBufferPointer<Element>, _ low: Int, _ high: Int,
                                           _ less: (Element, Element) -> Bool) -> Int {
        let middle = low + (high - low) / 2, last = high - 1
        if less(a[middle], a[low]) { a.swapAt(middle, low) }
        if less(a[last], a[low]) { a.swapAt(last, low) }
        if less(a[last], a[middle]) { a.swapAt(last, middle) }
        // The median goes to `last - 1`; a[low] ≤ pivot ≤ a[last] bound the scans.
        a.swapAt(middle, last - 1)
        let pivot = a[last - 1]
        var i = low, j = last - 1
        while true {
            repeat { i += 1 } while less(a[i], pivot)
            repeat { j -= 1 } while less(pivot, a[j])
            if i >= j { break }
            a.swapAt(i, j)
        }
        a.swapAt(i, last - 1)
        return i
    }

    @inlinable
    static func insertionSort<Element>(_ a: UnsafeMutableBufferPointer<Element>, _ low: Int, _ high: Int,
                                               _ less: (Element, Element) -> Bool) {
        guard high - low > 1 else { return }
        for index in (low + 1)..<high {
            let value = a[index]
            var place = index
            while place > low, less(value, a[place - 1]) {
                a[place] = a[place - 1]
                place -= 1
            }
            a[place] = value
        }
    }

    @inlinable
    static func heapsort<Element>(_ a: UnsafeMutableBufferPointer<Element>, _ low: Int, _ high: Int,
                                          _ less: (Element, Element) -> Bool) {
        let count = high - low
        func siftDown(_ start: Int, _ end: Int) {
            var root = start
            while true {
                var child = 2 * root + 1
                guard child < end else { return }
                if child + 1 < end, less(a[low + child], a[low + child + 1]) { child += 1 }
                guard less(a[low + root], a[low + child]) else { return }
                a.swapAt(low + root, low + child)
                root = child
            }
        }
        for start in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(start, count) }
        for end in stride(from: count - 1, to: 0, by: -1) {
            a.swapAt(low, low + end)
            siftDown(0, end)
        }
    }
}
