/// How to reach the database: `DATABASE_URL` when set, otherwise libpq's standard `PG*` variables.
public struct PostgresConfiguration: Sendable, Equatable {
    /// A libpq connection URI or key=value string; nil lets libpq read `PGHOST`, `PGDATABASE`, ….
    public var connectionString: String?
    /// libpq keywords taken from `PG*` variables (host, port, dbname, user, …) when there is no URL.
    public var keywords: [String: String] = [:]
    /// A database name that overrides the one in `connectionString` or `PGDATABASE`.
    public var databaseOverride: String?
    /// Shown in `pg_stat_activity.application_name`.
    public var applicationName: String

    /// Makes a configuration from explicit values.
    public init(connectionString: String?, databaseOverride: String? = nil, applicationName: String = "iap-pipeline") {
        self.connectionString = connectionString
        self.databaseOverride = databaseOverride
        self.applicationName = applicationName
    }

    /// The `PG*` variables this layer passes on, and their libpq keywords. PGPASSWORD is not among
    /// them on purpose: secrets come from files (PGPASSFILE).
    static let environmentKeywords = [
        "PGHOST": "host", "PGHOSTADDR": "hostaddr", "PGPORT": "port", "PGDATABASE": "dbname", "PGUSER": "user",
        "PGPASSFILE": "passfile", "PGSERVICE": "service", "PGSSLMODE": "sslmode", "PGSSLROOTCERT": "sslrootcert",
        "PGSSLCERT": "sslcert", "PGSSLKEY": "sslkey", "PGCONNECT_TIMEOUT": "connect_timeout",
    ]

    /// Reads `DATABASE_URL`; when it is absent or empty the `PG*` variables of `environment` apply.
    public static func fromEnvironment(_ environment: [String: String], applicationName: String = "iap-pipeline") -> PostgresConfiguration {
        let url = environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        var configuration = PostgresConfiguration(connectionString: url, applicationName: applicationName)
        if url == nil {
            for (variable, keyword) in environmentKeywords {
                if let value = environment[variable], !value.isEmpty { configuration.keywords[keyword] = value }
            }
        }
        return configuration
    }

    /// A copy that connects to another database on the same server (tests use one database per suite).
    public func withDatabase(_ name: String) -> PostgresConfiguration {
        var copy = self
        copy.databaseOverride = name
        return copy
    }

    /// The keyword/value pairs handed to `PQconnectdbParams` (with `expand_dbname` on).
    var connectionParameters: [(String, String)] {
        var pairs: [(String, String)] = []
        // The first dbname may be a whole URI or conninfo string; a later dbname is a plain name.
        if let connectionString { pairs.append(("dbname", connectionString)) }
        for keyword in keywords.keys.sorted() where keyword != "dbname" { pairs.append((keyword, keywords[keyword] ?? "")) }
        if databaseOverride == nil, let name = keywords["dbname"] { pairs.append(("dbname", name)) }
        if let databaseOverride { pairs.append(("dbname", databaseOverride)) }
        pairs.append(("application_name", applicationName))
        pairs.append(("client_encoding", "UTF8"))
        pairs.append(("options", "-c TimeZone=UTC -c DateStyle=ISO,YMD -c IntervalStyle=iso_8601 -c extra_float_digits=3 -c client_min_messages=warning"))
        return pairs
    }
}
