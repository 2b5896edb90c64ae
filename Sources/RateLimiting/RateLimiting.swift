/// Token buckets and backoff that keep store API calls under the stores' limits.
public enum RateLimiting {}
