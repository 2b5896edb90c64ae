import JobKit
import RepairJobs

/// `sweep-voided`: applies Google's voided purchases (refunds, chargebacks) to their subscriptions.
JobRunner.main(SweepVoided.definition())
