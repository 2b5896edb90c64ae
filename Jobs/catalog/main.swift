import Catalog
import JobKit

/// `catalog`: adds the plans and store products of a catalogue file (run as the owner role, like migrate).
JobRunner.main(CatalogJob.definition())
