@testable import StoreExports
import Testing

/// The fast row reader splits a record at commas eight bytes at a time (`GoogleEarningsFastRow.commaOrQuote`): for
/// every start and end in byte strings with commas and quotes anywhere (in a word's every lane, at its edges, in the
/// last few bytes) it finds what a byte-by-byte search finds.
@Suite struct FastRowSplitTests {
    /// The first comma or quote of `bytes[from..<to]` by a plain loop, or `to`.
    private static func naive(_ bytes: [UInt8], from: Int, to: Int) -> Int {
        bytes[from..<to].firstIndex { $0 == 0x2C || $0 == 0x22 } ?? to
    }

    @Test func theWordSearchFindsWhatTheByteSearchFinds() {
        var generator = SystemRandomNumberGenerator()
        // Bytes near the ones sought (0x2C ^ 1, 0x22 ^ 0x80, …) catch a borrow that reaches the next lane.
        let alphabet: [UInt8] = [0x2C, 0x22, 0x2D, 0x2B, 0x23, 0x21, 0xAC, 0xA2, 0x00, 0x01, 0xFF, 0x41, 0x30, 0x20]
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<count).map { _ in
                Int.random(in: 0..<4, using: &generator) == 0 ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0x40...0x7A, using: &generator)
            }
            bytes.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                for from in 0...count {
                    let to = Int.random(in: from...count, using: &generator)
                    #expect(GoogleEarningsFastRow.commaOrQuote(base, from: from, to: to) == Self.naive(bytes, from: from, to: to),
                            "\(bytes) from \(from) to \(to)")
                }
            }
        }
    }

    @Test func eachLaneOfAWordAndTheTail() {
        for length in 1...24 {
            for position in 0..<length {
                for sought: UInt8 in [0x2C, 0x22] {
                    var bytes = [UInt8](repeating: 0x61, count: length)
                    bytes[position] = sought
                    bytes.withUnsafeBytes { raw in
                        #expect(GoogleEarningsFastRow.commaOrQuote(raw.baseAddress!, from: 0, to: length) == position)
                        #expect(GoogleEarningsFastRow.commaOrQuote(raw.baseAddress!, from: position + 1, to: length) == length)
                    }
                }
            }
        }
    }
}
