import JobKit
import RepairJobs

/// `requery-at-risk`: re-queries at-risk subscriptions at the stores and repairs the projection, recording drift.
JobRunner.main(RequeryAtRisk.definition())
