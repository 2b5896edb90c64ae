/// Google Play Developer API client.
public enum GooglePlay {}
