import BeaconHTTP

/// Fetches configuration documents over HTTP(S).
public struct HTTPConfigurationFetcher: ConfigurationFetcher {
    /// Documents larger than this are refused (a configuration is a few kilobytes).
    public static let maximumSize = 4 << 20

    private let client: HTTPClient

    public init(client: HTTPClient = .shared) {
        self.client = client
    }

    public func fetch(_ request: ConfigurationRequest) async throws -> ConfigurationResponse {
        var headers: [(name: String, value: String)] = [("Accept", "application/yaml, application/json, text/plain")]
        if let etag = request.etag { headers.append(("If-None-Match", etag)) }
        if let lastModified = request.lastModified { headers.append(("If-Modified-Since", lastModified)) }
        for (name, value) in request.credentials.sorted(by: { $0.key < $1.key }) { headers.append((name, value)) }
        let response = try await client.send(
            HTTPRequest(url: request.url, headers: headers, timeout: request.timeout),
            maximumBodySize: Self.maximumSize)
        return ConfigurationResponse(
            status: response.status, body: response.body, etag: response.header("ETag"),
            lastModified: response.header("Last-Modified"))
    }
}
