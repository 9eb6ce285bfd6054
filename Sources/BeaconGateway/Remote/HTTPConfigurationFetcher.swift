import BeaconHTTP

/// Fetches configuration documents over HTTP(S), presenting a client certificate when the
/// request has one (`MutualTLSClient`).
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
        let http = HTTPRequest(url: request.url, headers: headers, timeout: request.timeout)
        let response =
            if let certificate = request.clientCertificate {
                try await MutualTLSClient.get(http, certificate: certificate, maximumBodySize: Self.maximumSize)
            } else {
                try await client.send(http, maximumBodySize: Self.maximumSize)
            }
        return ConfigurationResponse(
            status: response.status, body: response.body, etag: response.header("ETag"),
            lastModified: response.header("Last-Modified"), signature: response.header("X-Beacond-Signature"))
    }
}
