import JobKit
import RepairJobs

/// `replay-events`: replays unprocessed and failed webhooks through the projection, dead-lettering hopeless ones.
JobRunner.main(ReplayEvents.definition())
