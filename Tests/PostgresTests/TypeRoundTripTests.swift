import Foundation
import Postgres
import Testing

/// Every column type the pipeline uses survives a parameter → column → decode round trip.
@Suite struct TypeRoundTripTests {
    @Test func textIntegersAndBool() throws {
        let db = try PostgresTestDatabase.connect()
        let row = try #require(try db.query(
            "SELECT $1::text AS t, $2::int4 AS i4, $3::int8 AS i8, $4::bool AS yes, $5::bool AS no",
            ["héllo ✓", Int32.min, Int64.max, true, false]).first)
        #expect(try row.decode(String.self, "t") == "héllo ✓")
        #expect(try row.decode(Int32.self, "i4") == Int32.min)
        #expect(try row.decode(Int64.self, "i8") == Int64.max)
        #expect(try row.decode(Bool.self, "yes") == true)
        #expect(try row.decode(Bool.self, "no") == false)
    }

    @Test(arguments: [
        ("0", Int64(0)), ("1", 1_000_000), ("-1.5", -1_500_000), ("0.000001", 1),
        ("12345678901.123456", 12_345_678_901_123_456), ("4.990000000", 4_990_000), ("-0.000001", -1),
    ])
    func numericToMicrosIsExact(text: String, micros: Int64) throws {
        let db = try PostgresTestDatabase.connect()
        let row = try #require(try db.query("SELECT $1::numeric AS n", [text]).first)
        #expect(try row.micros("n") == micros)
        let back = try #require(try db.query("SELECT $1::numeric = $2::numeric AS same", [PostgresMicrosNumeric(micros), text]).first)
        #expect(try back.decode(Bool.self, "same"))
    }

    @Test func numericBeyondMicrosIsAnErrorNotRounded() throws {
        let db = try PostgresTestDatabase.connect()
        let row = try #require(try db.query("SELECT 1.0000001::numeric AS n").first)
        #expect(throws: PostgresError.self) { try row.micros("n") }
    }

    @Test(arguments: [0.0, 1_764_417_600.123456, -86_400.5, 4_102_444_800.999999, 951_782_400.0])
    func timestamptzKeepsMicroseconds(seconds: Double) throws {
        let db = try PostgresTestDatabase.connect()
        let date = Date(timeIntervalSince1970: seconds)
        let row = try #require(try db.query("SELECT $1::timestamptz AS at, extract(epoch FROM $1::timestamptz)::text AS epoch", [date]).first)
        let decoded = try row.decode(Date.self, "at")
        #expect(abs(decoded.timeIntervalSince1970 - seconds) < 0.000_001)
        #expect(PostgresTimestamp.format(decoded) == PostgresTimestamp.format(date))
        let epoch = try row.decode(String.self, "epoch")
        #expect(abs((Double(epoch) ?? .nan) - seconds) < 0.000_001)
    }

    @Test func timestampWithOffsetIsReadInUTC() throws {
        let db = try PostgresTestDatabase.connect()
        let row = try #require(try db.query("SELECT '2026-03-29 01:30:00+05:30'::timestamptz AS at").first)
        #expect(PostgresTimestamp.iso8601(try row.decode(Date.self, "at")) == "2026-03-28T20:00:00.000000Z")
    }

    @Test func uuidJsonbEnumAndBytea() throws {
        let db = try PostgresTestDatabase.connect()
        let id = UUID()
        let bytes: [UInt8] = [0, 1, 2, 255, 10, 13, 92, 39]
        let row = try #require(try db.query("""
            SELECT $1::uuid AS id, $2::jsonb AS doc, $3::subscription_status AS status, $4::bytea AS raw
            """, [id, PostgresJSON(text: #"{"b": [1, 2], "a": "x\"y"}"#), "IN_GRACE_PERIOD", bytes]).first)
        #expect(try row.decode(UUID.self, "id") == id)
        struct Doc: Decodable, Equatable { let a: String; let b: [Int] }
        #expect(try row.decode(PostgresJSONText.self, "doc").decode(Doc.self) == Doc(a: "x\"y", b: [1, 2]))
        enum Status: String { case ACTIVE, IN_GRACE_PERIOD }
        #expect(try row.decode(Status.self, "status") == .IN_GRACE_PERIOD)
        #expect(try row.decode(Data.self, "raw") == Data(bytes))
    }

    @Test func nullsDecodeAsNilAndNonOptionalNullIsNamed() throws {
        let db = try PostgresTestDatabase.connect()
        let row = try #require(try db.query("SELECT $1::text AS missing", [String?.none]).first)
        #expect(try row.decodeIfPresent(String.self, "missing") == nil)
        #expect(try row.isNull("missing"))
        let error = try #require(throws: PostgresError.self) { try row.decode(String.self, "missing") }
        #expect(error.description.contains("missing"))
    }
}
