import Foundation
import Postgres

/// The parsed command line: the common contract's options plus the job's own.
public struct JobArguments: Sendable {
    public var help = false
    public var version = false
    public var dryRun = false
    /// The instant the job acts as of; defaults to the start of the run.
    public var asOf: Date?
    public var limit: Int?
    public var logFormat: LogFormat?
    /// Job-specific flags that were given.
    public var flags: Set<String> = []
    /// Job-specific options with values.
    public var values: [String: String] = [:]
    /// Bare (non-option) arguments, accepted only when the job declares a positional argument.
    public var positionals: [String] = []
    /// The raw arguments, recorded in `job_run.arguments`.
    public var raw: [String] = []

    /// Parses `arguments` (without the program name) against the common options and `options`; bare arguments are
    /// kept in `positionals` when `positional` is true and refused otherwise.
    public static func parse(_ arguments: [String], options: [JobOption], positional: Bool = false) throws -> JobArguments {
        var parsed = JobArguments()
        parsed.raw = arguments
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let (name, inlineValue) = split(argument)
            func value() throws -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst() else { throw JobError.usage("\(name) needs a value") }
                return next
            }
            switch name {
            case "--help", "-h": parsed.help = true
            case "--version": parsed.version = true
            case "--dry-run": parsed.dryRun = true
            case "--as-of": parsed.asOf = try parseInstant(try value(), option: "--as-of")
            case "--limit":
                let text = try value()
                guard let limit = Int(text), limit > 0 else { throw JobError.usage("--limit must be a positive whole number, not '\(text)'") }
                parsed.limit = limit
            case "--log-format":
                let text = try value()
                guard let format = LogFormat(rawValue: text) else { throw JobError.usage("--log-format is text or json, not '\(text)'") }
                parsed.logFormat = format
            default:
                if positional, !argument.hasPrefix("-") {
                    parsed.positionals.append(argument)
                    continue
                }
                guard name.hasPrefix("--"), let option = options.first(where: { "--" + $0.name == name }) else {
                    throw JobError.usage("unknown argument '\(argument)'")
                }
                switch option.kind {
                case .flag:
                    guard inlineValue == nil else { throw JobError.usage("\(name) takes no value") }
                    parsed.flags.insert(option.name)
                case .value: parsed.values[option.name] = try value()
                }
            }
        }
        return parsed
    }

    /// Parses `YYYY-MM-DD` (midnight UTC) or an ISO 8601 instant with a zone (`2026-11-29T06:00:00Z`). A day the
    /// month does not have (`2026-02-30`) is refused, never rolled over into the next month.
    public static func parseInstant(_ text: String, option: String) throws -> Date {
        let hasTime = text.count > 10
        let hasZone = text.hasSuffix("Z") || text.dropFirst(19).contains("+") || text.dropFirst(19).contains("-")
        guard !hasTime || hasZone, let date = PostgresTimestamp.parse(text) else {
            throw JobError.usage("\(option) takes a date (2026-11-29) or an instant with its zone (2026-11-29T06:00:00Z), not '\(text)'")
        }
        let parts = text.prefix(10).split(separator: "-")
        if parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
           day > daysIn(month: month, year: year) {
            throw JobError.usage("\(option) \(text): \(year)-\(parts[1]) has \(daysIn(month: month, year: year)) days")
        }
        return date
    }

    /// Parses a calendar month `YYYY-MM` (month 01–12, nothing else) for `option`; `2026-13` and `2026-1` are refused.
    public static func parseMonth(_ text: String, option: String) throws -> (year: Int, month: Int) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month), year >= 1900 else {
            throw JobError.usage("\(option) takes a calendar month YYYY-MM (01–12), not '\(text)'")
        }
        return (year, month)
    }

    /// The number of days in `month` of `year` (Gregorian).
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
