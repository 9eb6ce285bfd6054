/// The status page: one self-contained HTML document, `Status/Resources/status.html` (styles and
/// script inline, no CDN, no build step), embedded in the binary at build time by SwiftPM
/// (`.embedInCode`: a byte array in the module, no `Bundle` to find at run time).
/// `scripts/check-status-page.py` (`make lint`) checks it against ``contentSecurityPolicy``.
///
/// It reads the JSON API (``StatusAPI``) and follows `GET /api/events`; everything it shows is
/// rendered as text nodes, never as HTML. It stays responsive with 10,000 beacons: the beacon
/// table renders only the rows in view and asks the server for that window (sorted and filtered
/// server-side); the RSSI plot is drawn for the selected beacon only; the map draws at most
/// 2,000 positions.
enum StatusPage {
    /// What the page may load: only itself and its own API.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:; "
        + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The document, as served on `GET /`.
    static let html = String(decoding: PackageResources.status_html, as: UTF8.self)
}
