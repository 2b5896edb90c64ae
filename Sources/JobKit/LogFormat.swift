/// How log lines are written on stderr.
public enum LogFormat: String, Sendable {
    case text, json
}
