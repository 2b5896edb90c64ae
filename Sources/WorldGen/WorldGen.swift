/// Deterministic generated worlds: store truth, the database as the webhook path left it, report files, a manifest.
public enum WorldGen {}
