/// Connect and total time limits for one exchange, in seconds.
public struct HTTPTimeouts: Sendable, Equatable {
    /// Limit for establishing the TCP (and TLS) connection.
    public var connect: Double
    /// Limit for the whole exchange, connect included.
    public var total: Double

    /// Makes limits; defaults are 5 s to connect and 30 s in total.
    public init(connect: Double = 5, total: Double = 30) {
        self.connect = connect
        self.total = total
    }

    /// 5 s connect, 30 s total.
    public static let standard = HTTPTimeouts()
}
