import JobKit
import Reconciliation

/// `close-period`: month-end close — snapshot the reconciliation, lock the month (Reconciliation).
JobRunner.main(ClosePeriod.definition())
