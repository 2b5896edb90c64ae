import JobKit
import RepairJobs

/// `ack-rescue`: acknowledges paid Google purchases still pending, nearest to the 3-day deadline first.
JobRunner.main(AckRescue.definition())
