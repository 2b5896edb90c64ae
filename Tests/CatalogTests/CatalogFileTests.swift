import Catalog
import Testing

/// The catalogue file's rules, one refusal per case, each naming the file, the line and the column.
struct CatalogFileTests {
    static let header = CatalogFile.columns.joined(separator: "\t")

    @Test func aFileWithCommentsAndBothStoresParses() throws {
        let file = try CatalogFile.parse("""
            # a comment

            \(Self.header)
            APPLE\tcom.a.monthly\t\t\tm\tMonthly\tP1M
            GOOGLE\tsub\tmonthly\t\tm\tMonthly\tP1M\r
            GOOGLE\tsub\tweekly\t\tw\tWeekly\tP1W
            """, path: "c.tsv")
        #expect(file.plans.map(\.code) == ["m", "w"])
        #expect(file.mappings.map(\.externalKey) == ["APPLE:com.a.monthly::", "GOOGLE:sub:monthly:", "GOOGLE:sub:weekly:"])
        #expect(file.mappings.map(\.line) == [4, 5, 6])
    }

    @Test(arguments: [
        ("", "c.tsv: empty (no header, no products)"),
        ("\(header)\n", "c.tsv: a header and no products"),
        ("provider\tproduct\n", "c.tsv:1: the header must be"),
        ("\(header)\nAPPLE\tx\t\t\tm\tM\n", "c.tsv:2: 6 tab-separated cells, the header has 7"),
        ("\(header)\nWEB\tx\t\t\tm\tM\tP1M\n", "c.tsv:2 column provider: 'WEB' is not APPLE or GOOGLE"),
        ("\(header)\nAPPLE\t\t\t\tm\tM\tP1M\n", "c.tsv:2 column product_id: empty"),
        ("\(header)\nAPPLE\tx\tmonthly\t\tm\tM\tP1M\n", "c.tsv:2 column base_plan_id: an Apple product has no base plan"),
        ("\(header)\nGOOGLE\tx\t\t\tm\tM\tP1M\n", "c.tsv:2 column base_plan_id: a Google subscription names its base plan"),
        ("\(header)\nAPPLE\tx\t\t\tm\tM\tP30D\n", "c.tsv:2 column billing_period: 'P30D' is not one of"),
        ("\(header)\nAPPLE\tx\t\t\tm\tM\tP1M\nAPPLE\ty\t\t\tm\tM\tP1Y\n", "c.tsv:3 column billing_period: plan m is M P1M on line 2"),
        ("\(header)\nAPPLE\tx\t\t\tm\tM\tP1M\nAPPLE\tx\t\t\tn\tN\tP1M\n", "c.tsv:3 column product_id: APPLE:x:: is already mapped on line 2"),
        ("\(header)\nAPPLE\tx \t\t\tm\tM\tP1M\n", "c.tsv:2 column product_id: leading or trailing spaces in 'x '"),
    ])
    func aBadFileIsRefusedWithItsPosition(text: String, message: String) {
        #expect {
            try CatalogFile.parse(text, path: "c.tsv")
        } throws: { error in
            (error as? CatalogFile.Refusal)?.description.hasPrefix(message) == true
        }
    }

    @Test func anUnreadableFileNamesItsPath() {
        #expect {
            try CatalogFile.read("/nonexistent/catalog.tsv")
        } throws: { error in
            (error as? CatalogFile.Refusal)?.description.hasPrefix("cannot read the catalogue file /nonexistent/catalog.tsv") == true
        }
    }
}
