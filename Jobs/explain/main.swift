import Explain
import JobKit

/// `explain <id>`: one subscription's timeline for support and on-call (read-only; `--json` for tools).
JobRunner.main(Explain.definition())
