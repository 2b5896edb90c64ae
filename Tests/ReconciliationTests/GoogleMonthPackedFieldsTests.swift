import Postgres
@testable import Reconciliation
import TestSupport
import Testing

/// The report side's small fields go packed in one `int8` (`GoogleMonthStream.PackedFields`): PostgreSQL packs them
/// with the statement's own expression, and every combination reads back as it went in — both kinds, every period and
/// side, no refund type, `Full` and `Partial`, charge counts at the ends of `int4` — while a refund type of another
/// text, or bits out of range, make the row unreadable.
@Suite struct GoogleMonthPackedFieldsTests {
    /// One row to pack: the SQL literals and what must read back.
    struct Case {
        let kind: Int, period: Int, side: Int, refundType: String?, charges: Int32
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        for kind in 0...1 {
            for period in 0...2 {
                for side in 0...1 {
                    for refundType in [nil, "Full", "Partial"] as [String?] {
                        for charges in [0, 1, -1, 2, Int32.max, Int32.min] as [Int32] {
                            cases.append(Case(kind: kind, period: period, side: side, refundType: refundType, charges: charges))
                        }
                    }
                }
            }
        }
        return cases
    }()

    /// The packed values PostgreSQL computes for `cases`, in order.
    static func packed(_ cases: [Case], _ database: PostgresConnection) throws -> [Int64] {
        let rows = cases.enumerated().map { index, c in
            let refund = c.refundType.map { "'\($0)'::text" } ?? "NULL::text"
            return "SELECT \(index) AS i, " + GoogleMonthStream.PackedFields.sql(kind: String(c.kind), period: c.period,
                                                                                  side: String(c.side), refundType: refund,
                                                                                  charges: "(\(c.charges))::int4") + " AS v"
        }
        return try database.query("SELECT v FROM (\(rows.joined(separator: " UNION ALL "))) t ORDER BY i").rows
            .map { try $0.decode(Int64.self, "v") }
    }

    @Test func everyCombinationReadsBackAsItWentIn() throws {
        let roles = try RoleDatabase.fresh("google_month_packed_fields")
        let database = try PostgresConnection(configuration: roles.superuser)
        defer { database.close() }
        let packed = try Self.packed(Self.cases, database)
        #expect(packed.count == Self.cases.count)
        for (c, value) in zip(Self.cases, packed) {
            let fields = try #require(GoogleMonthStream.PackedFields(value), "\(c)")
            #expect(fields.isFact == (c.kind == 0) && fields.period == c.period && fields.side == c.side
                    && fields.charges == c.charges && fields.refundType.map { "\($0)" } == c.refundType, "\(c): \(value)")
        }
    }

    @Test func anotherRefundTypeOrBitsOutOfRangeAreUnreadable() throws {
        let roles = try RoleDatabase.fresh("google_month_packed_fields_refused")
        let database = try PostgresConnection(configuration: roles.superuser)
        defer { database.close() }
        let other = try #require(try Self.packed([Case(kind: 0, period: 0, side: 1, refundType: "full", charges: 1)], database).first)
        #expect(GoogleMonthStream.PackedFields(other) == nil)
        #expect(GoogleMonthStream.PackedFields(Int64(3) << 36) == nil, "period 3")
        #expect(GoogleMonthStream.PackedFields(Int64(2) << 34) == nil, "side 2")
        #expect(GoogleMonthStream.PackedFields(Int64(1) << 39) == nil, "a bit above the kind")
        #expect(GoogleMonthStream.PackedFields(-1) == nil)
    }
}
