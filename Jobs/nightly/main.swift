import JobKit

JobRunner.main(NightlyChain.definition())
