@testable import StoreExports
import Testing

/// The scanner's in-place UTF-8 check accepts exactly what the copying validation accepts.
@Suite struct ReportTextInPlaceTests {
    @Test func inPlaceCheckAgreesWithValidate() {
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [[0x41], [0x00], [0xC3, 0xBC], [0xC0, 0x80], [0xE2, 0x82, 0xAC], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
                                 [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5], [0x80], [0xE3, 0x81], [0x0A], [0x2C]]
        var checked = 0, invalid = 0
        for _ in 0..<5_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...6, using: &generator) { bytes += pieces.randomElement(using: &generator) ?? [] }
            let valid = (try? ReportText.validate(bytes[...], file: "f")) != nil
            #expect(bytes.withUnsafeBytes { ReportText.isValid($0) } == valid, "\(bytes)")
            checked += 1
            if !valid { invalid += 1 }
        }
        #expect(checked == 5_000 && invalid > 100 && invalid < 4_900)
    }
}
