import JobKit
import Monitoring

/// `drift-counts`: monitoring counts as a Prometheus textfile and JSON; exit 3 when a threshold is breached.
JobRunner.main(DriftCounts.definition())
