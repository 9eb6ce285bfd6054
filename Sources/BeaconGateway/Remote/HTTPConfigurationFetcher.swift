import AsyncHTTPClient
import NIOCore

/// Fetches configuration documents over HTTP(S) with async-http-client.
public struct HTTPConfigurationFetcher: ConfigurationFetcher {
    /// Documents larger than this are refused (a configuration is a few kilobytes).
    public static let maximumSize = 4 << 20

    private let client: HTTPClient

    public init(client: HTTPClient = .shared) {
        self.client = client
    }

    public func fetch(_ request: ConfigurationRequest) async throws -> ConfigurationResponse {
        var http = HTTPClientRequest(url: request.url)
        http.method = .GET
        http.headers.add(name: "Accept", value: "application/yaml, application/json, text/plain")
        if let etag = request.etag { http.headers.add(name: "If-None-Match", value: etag) }
        if let lastModified = request.lastModified { http.headers.add(name: "If-Modified-Since", value: lastModified) }
        let timeout = TimeAmount.nanoseconds(request.timeout.nanoseconds)
        let response = try await client.execute(http, timeout: timeout)
        let body = try await response.body.collect(upTo: Self.maximumSize)
        return ConfigurationResponse(status: Int(response.status.code), body: Array(buffer: body),
                                     etag: response.headers.first(name: "ETag"),
                                     lastModified: response.headers.first(name: "Last-Modified"))
    }
}
