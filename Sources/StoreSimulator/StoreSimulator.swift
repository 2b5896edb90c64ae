/// A loopback simulation of the App Store Server API and the Google Play Developer API.
public enum StoreSimulator {}
