import BillingCore
import Foundation

/// A product catalogue file: which store product (Apple product id; Google product id, base plan and offer) is which
/// plan of ours, and each plan's code, name and ISO 8601 billing period. Tab-separated UTF-8 with this header:
///
///     provider	product_id	base_plan_id	offer_id	plan_code	plan_name	billing_period
///
/// One line per store product; blank lines and lines starting with `#` are comments. `provider` is `APPLE` or
/// `GOOGLE`; an Apple line leaves `base_plan_id` and `offer_id` empty, a Google line names its base plan (and an
/// offer only for an offer's own mapping, e.g. a free trial). A plan code may appear on several lines (its store
/// products), always with the same name and period. Every refusal names the file, the line and the column.
public struct CatalogFile: Sendable, Equatable {
    /// The header every file starts with (after comments).
    public static let columns = ["provider", "product_id", "base_plan_id", "offer_id", "plan_code", "plan_name", "billing_period"]

    /// One plan of ours, as the file defines it.
    public struct Plan: Sendable, Equatable {
        public let code: String
        public let name: String
        /// ISO 8601: P1W, P2W, P4W, P1M, P2M, P3M, P6M or P1Y.
        public let billingPeriod: String
        /// The line that first defined it.
        public let line: Int
    }

    /// One store product and the plan it is.
    public struct Mapping: Sendable, Equatable {
        public let provider: String
        public let productId: String
        public let basePlanId: String
        public let offerId: String
        public let planCode: String
        public let line: Int

        /// `PROVIDER:product:basePlan:offer`, the mapping's external key.
        public var externalKey: String { [provider, productId, basePlanId, offerId].joined(separator: ":") }
    }

    /// A line the file cannot be read past.
    public struct Refusal: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The periods a plan may have: those the reports normalise to a month (Reports/README.md, "MRR").
    public static let billingPeriods: Set<String> = ["P1W", "P2W", "P4W", "P1M", "P2M", "P3M", "P6M", "P1Y"]

    public let path: String
    public let plans: [Plan]
    public let mappings: [Mapping]
    /// The bytes parsed (the audit row records their SHA-256).
    public let bytes: [UInt8]

    /// Reads and checks the file at `path`.
    public static func read(_ path: String) throws -> CatalogFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Refusal(description: "cannot read the catalogue file \(path): \((error as NSError).localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Refusal(description: "\(path): not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// Parses `text` (named `path` in refusals).
    public static func parse(_ text: String, path: String) throws -> CatalogFile {
        let bytes = Array(text.utf8)
        var plans: [Plan] = []
        var planIndex: [String: Int] = [:]
        var mappings: [Mapping] = []
        var keys: [String: Int] = [:]
        var sawHeader = false
        // "\r\n" is one Character in Swift: both line ends split.
        for (offset, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let number = offset + 1
            let line = raw
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") { continue }
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            func refuse(_ column: String?, _ why: String) -> Refusal {
                Refusal(description: "\(path):\(number)\(column.map { " column \($0)" } ?? ""): \(why)")
            }
            guard sawHeader else {
                guard cells == columns else {
                    throw refuse(nil, "the header must be the \(columns.count) tab-separated columns "
                                 + columns.joined(separator: ", ") + ", not " + Self.excerpt(String(line)))
                }
                sawHeader = true
                continue
            }
            guard cells.count == columns.count else {
                throw refuse(nil, "\(cells.count) tab-separated cells, the header has \(columns.count)")
            }
            for (column, cell) in zip(columns, cells) where cell != cell.trimmingCharacters(in: .whitespaces) {
                throw refuse(column, "leading or trailing spaces in \(Self.excerpt(cell))")
            }
            let provider = cells[0], product = cells[1], basePlan = cells[2], offer = cells[3]
            let code = cells[4], name = cells[5], period = cells[6]
            guard provider == "APPLE" || provider == "GOOGLE" else {
                throw refuse("provider", "\(Self.excerpt(provider)) is not APPLE or GOOGLE")
            }
            guard !product.isEmpty else { throw refuse("product_id", "empty") }
            if provider == "APPLE" {
                guard basePlan.isEmpty else { throw refuse("base_plan_id", "an Apple product has no base plan (\(Self.excerpt(basePlan)))") }
                guard offer.isEmpty else { throw refuse("offer_id", "an Apple product has no offer id (\(Self.excerpt(offer)))") }
            } else {
                guard !basePlan.isEmpty else { throw refuse("base_plan_id", "a Google subscription names its base plan") }
            }
            guard !code.isEmpty else { throw refuse("plan_code", "empty") }
            guard !name.isEmpty else { throw refuse("plan_name", "empty") }
            guard billingPeriods.contains(period) else {
                throw refuse("billing_period", "\(Self.excerpt(period)) is not one of " + billingPeriods.sorted().joined(separator: ", "))
            }
            if let index = planIndex[code] {
                let plan = plans[index]
                guard plan.name == name, plan.billingPeriod == period else {
                    throw refuse(plan.name == name ? "billing_period" : "plan_name",
                                 "plan \(code) is \(plan.name) \(plan.billingPeriod) on line \(plan.line), \(name) \(period) here")
                }
            } else {
                planIndex[code] = plans.count
                plans.append(Plan(code: code, name: name, billingPeriod: period, line: number))
            }
            let mapping = Mapping(provider: provider, productId: product, basePlanId: basePlan, offerId: offer, planCode: code, line: number)
            if let first = keys[mapping.externalKey] {
                throw refuse("product_id", "\(mapping.externalKey) is already mapped on line \(first)")
            }
            keys[mapping.externalKey] = number
            mappings.append(mapping)
        }
        guard sawHeader else { throw Refusal(description: "\(path): empty (no header, no products)") }
        guard !mappings.isEmpty else { throw Refusal(description: "\(path): a header and no products") }
        return CatalogFile(path: path, plans: plans, mappings: mappings, bytes: bytes)
    }

    /// A value as a refusal quotes it, in quotes: BillingCore's `Redaction.excerpt` (whole up to 32 characters, else masked).
    static func excerpt(_ value: String) -> String {
        "'" + Redaction.excerpt(value) + "'"
    }
}
