/// App Store Server API client.
public enum AppStore {}
