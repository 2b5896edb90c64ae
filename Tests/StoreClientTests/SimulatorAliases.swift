import StoreSimulator

/// The simulator's own per-endpoint limit type (RateLimiting has a `RateLimit` too).
typealias SimulatorRateLimit = RateLimit
