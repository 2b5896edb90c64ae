import JobKit
import RepairJobs

/// `expire-lapsed`: expires subscriptions whose paid period ended without renewal (a derived EXPIRED row).
JobRunner.main(ExpireLapsed.definition())
