import JobKit
import Reconciliation

/// `reconcile`: staged store reports against billing_transaction, one category per difference (Reconciliation).
JobRunner.main(Reconcile.definition())
