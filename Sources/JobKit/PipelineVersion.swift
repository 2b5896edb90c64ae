/// The pipeline's version, printed by `--version`.
public enum PipelineVersion {
    public static let string = "0.1.0"
}
