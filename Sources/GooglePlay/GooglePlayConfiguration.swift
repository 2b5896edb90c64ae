/// Where and for which app the Google Play Developer API is called.
public struct GooglePlayConfiguration: Sendable {
    public var packageName: String
    /// `https://androidpublisher.googleapis.com` or the simulator's `http://127.0.0.1:<port>`.
    public var publisherBaseURL: String
    /// `https://storage.googleapis.com` (report files) or the simulator.
    public var storageBaseURL: String
    /// The Cloud Storage bucket holding the Play Console reports (`pubsite_prod_rev_…`).
    public var reportBucket: String?

    /// Makes a configuration.
    public init(packageName: String, publisherBaseURL: String = "https://androidpublisher.googleapis.com",
                storageBaseURL: String? = nil, reportBucket: String? = nil) {
        self.packageName = packageName
        self.publisherBaseURL = publisherBaseURL.hasSuffix("/") ? String(publisherBaseURL.dropLast()) : publisherBaseURL
        self.storageBaseURL = storageBaseURL ?? (publisherBaseURL.contains("googleapis.com") ? "https://storage.googleapis.com" : self.publisherBaseURL)
        self.reportBucket = reportBucket
    }
}
