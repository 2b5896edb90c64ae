import JobKit
import Retention

/// `retention`: deletes old sandbox / test rows, expires idempotency keys, redacts old raw payloads.
JobRunner.main(Retention.definition())
