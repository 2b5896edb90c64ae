import Foundation

/// Parses `Retry-After` header values into the instant to retry at.
public enum RetryAfter {
    /// How a store writes the header.
    public enum Convention: Sendable {
        /// Apple: UNIX time in milliseconds; delta-seconds and HTTP-date are accepted too.
        case appleMilliseconds
        /// RFC 9110: delta-seconds or an HTTP-date (Google's use is unconfirmed).
        case standard
    }

    /// The instant to retry at, or nil when the value is absent or unreadable (then use backoff).
    /// Under `.appleMilliseconds`, an integer of 12+ digits is UNIX milliseconds (honoured exactly);
    /// shorter integers are delta-seconds.
    public static func parse(_ value: String?, convention: Convention, now: Date) -> Date? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard value.count <= 18, let number = Int64(value) else { return nil }
            if convention == .appleMilliseconds && value.count >= 12 {
                return Date(timeIntervalSince1970: Double(number / 1000) + Double(number % 1000) / 1000)
            }
            return now.addingTimeInterval(Double(number))
        }
        return httpDate(value)
    }

    /// Reads an HTTP-date: IMF-fixdate, RFC 850, or asctime, always GMT.
    public static func httpDate(_ value: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: value.replacingOccurrences(of: "  ", with: " ")) { return date }
        }
        return nil
    }
}
