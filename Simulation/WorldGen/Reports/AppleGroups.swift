/// The groups of Apple's aggregate grain that injected differences occupy, so that no two differences can meet.
///
/// Apple's reports carry no transaction IDs: a reconciliation compares unit counts per fiscal period and cell
/// (product × country × currency × price × sale/return). Two differences in one product, country and side can
/// cancel (a unit too many and one too few) or pair (a surplus at one price and a shortfall at another read as an
/// amount mismatch), and the timing rule reads the neighbouring periods. A group is one fiscal period, product,
/// country and side; a difference may be injected only when none of the groups it touches, nor the same groups of
/// the neighbouring periods, is taken already — then every Apple difference is alone and is found in its category.
struct AppleGroups {
    private var taken: Set<String> = []

    /// Takes the groups of `entries` (the database's and the report's view of one difference) when they and their
    /// neighbours are free; false (nothing taken) otherwise.
    mutating func takeIfFree(_ entries: [ReportEntry]) -> Bool {
        for entry in entries {
            let period = AppleFiscalPeriod.containing(ms: entry.atMs)
            let (start, end) = period.bounds
            for neighbour in [AppleFiscalPeriod.containing(ms: start - 1), period, AppleFiscalPeriod.containing(ms: end)]
            where taken.contains(Self.key(neighbour, entry)) {
                return false
            }
        }
        for entry in entries { take(entry) }
        return true
    }

    /// Takes the group of `entry` unconditionally (a difference the injector does not choose).
    mutating func take(_ entry: ReportEntry) {
        taken.insert(Self.key(AppleFiscalPeriod.containing(ms: entry.atMs), entry))
    }

    static func key(_ period: AppleFiscalPeriod, _ entry: ReportEntry) -> String {
        "\(period.reportDate)|\(entry.plan)|\(entry.country)|\(entry.kind.rawValue)"
    }
}
