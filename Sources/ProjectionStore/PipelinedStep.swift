import Postgres

/// A statement to send in a pipeline together with how its result is read back.
struct PipelinedStep<Value> {
    let statement: PostgresStatement
    let read: (PostgresResult) throws -> Value
}

/// The results of one pipeline, read back in the order the steps were sent.
struct PipelinedResults {
    private var results: ArraySlice<PostgresResult>

    /// Sends `statements` as one pipeline on `database`.
    init(_ database: PostgresConnection, _ statements: [PostgresStatement]) throws {
        results = try database.pipeline(statements)[...]
    }

    /// The value of the next step; `step` must be the next one sent.
    mutating func take<Value>(_ step: PipelinedStep<Value>) throws -> Value {
        guard let result = results.popFirst() else {
            throw PostgresError(.usage, message: "the pipeline returned fewer results than steps", statement: step.statement.sql)
        }
        return try step.read(result)
    }
}
