import JobKit
import RepairJobs

/// `recover-notifications`: recovers Apple notifications the server never stored, from Get Notification History.
JobRunner.main(RecoverNotifications.definition())
