import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Debian's `chromium`, headless, driven through the DevTools protocol over the pipe it offers
/// with `--remote-debugging-pipe` (file descriptors 3 and 4, one JSON message per NUL-terminated
/// frame): no WebSocket client, no port. A test opens a page, evaluates JavaScript in it and
/// takes screenshots, as a user's browser would see the page.
///
/// Every call blocks (it reads the pipe with a timeout): call it on a thread of its own
/// (``onOwnThread(_:)``). `@unchecked Sendable`: a test drives it from one task, one call at a time.
public final class HeadlessChromium: @unchecked Sendable {
    /// A tab, attached: the DevTools session that commands about the page go to.
    public struct Page: Sendable {
        let targetID: String
        let sessionID: String
    }

    /// What went wrong talking to the browser.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let pid: pid_t
    private let commands: Int32
    private let replies: Int32
    private var pending: [UInt8] = []
    private var nextID = 1
    private let profile: String
    /// How long one command may take.
    public var timeout: Duration = hangCeiling

    /// The browser's executable: the real binary behind Debian's `/usr/bin/chromium` wrapper.
    public static var executable: String? {
        ["/usr/lib/chromium/chromium", "/usr/bin/chromium"].first { access($0, X_OK) == 0 }
    }

    /// Starts a headless browser with a fresh profile and a `width`×`height` window.
    public init(width: Int = 1280, height: Int = 900) throws {
        guard let executable = Self.executable else {
            throw Failure(description: "chromium is not installed (scripts/ensure-deps.sh test installs it)")
        }
        profile = NSTemporaryDirectory() + "beacond-chromium-\(UUID().uuidString)"
        var toBrowser: [Int32] = [0, 0]
        var fromBrowser: [Int32] = [0, 0]
        // Close-on-exec: only the copies made as fds 3 and 4 reach the browser, and no other child
        // started meanwhile (by another test) inherits either end.
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else { throw Failure(description: "pipe: \(errno)") }
        for fd in toBrowser + fromBrowser { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let arguments = [
            executable, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--disable-sync", "--hide-scrollbars",
            "--remote-debugging-pipe", "--user-data-dir=\(profile)", "--window-size=\(width),\(height)", "about:blank",
        ]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The browser reads commands on fd 3 and writes replies on fd 4.
        posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var child: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let status = posix_spawn(&child, executable, &actions, nil, argv, environ)
        close(toBrowser[0])
        close(fromBrowser[1])
        guard status == 0 else {
            close(toBrowser[1])
            close(fromBrowser[0])
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        commands = toBrowser[1]
        replies = fromBrowser[0]
    }

    deinit {
        close(commands)
        close(replies)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// Opens `url` in a new tab and attaches to it.
    public func open(_ url: String) throws -> Page {
        let created = try command("Target.createTarget", ["url": url])
        guard let targetID = created["targetId"] as? String else { throw Failure(description: "no target: \(created)") }
        let attached = try command("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        guard let sessionID = attached["sessionId"] as? String else { throw Failure(description: "no session: \(attached)") }
        return Page(targetID: targetID, sessionID: sessionID)
    }

    /// Evaluates `expression` in the page (awaiting a promise) and returns its value as JSON
    /// gives it (`String`, `NSNumber`, arrays, dictionaries, `nil`).
    public func evaluate(_ expression: String, in page: Page) throws -> Any? {
        let reply = try command(
            "Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true], session: page)
        if let exception = reply["exceptionDetails"] { throw Failure(description: "\(expression) threw: \(exception)") }
        return (reply["result"] as? [String: Any])?["value"]
    }

    /// Evaluates `expression` until it is true (checked every 200 ms), up to `limit`; the last
    /// value when it never became true.
    @discardableResult
    public func waitUntil(_ expression: String, in page: Page, limit: Duration = hangCeiling) throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try evaluate(expression, in: page) as? Bool == true { return true }
            usleep(200_000)
        }
        return false
    }

    /// A PNG of the page as shown.
    public func screenshot(of page: Page) throws -> Data {
        let reply = try command("Page.captureScreenshot", ["format": "png"], session: page)
        guard let base64 = reply["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw Failure(description: "no screenshot in \(reply.keys)")
        }
        return data
    }

    /// Sends a command and waits for its reply (events in between are skipped).
    @discardableResult
    public func command(_ method: String, _ parameters: [String: Any] = [:], session: Page? = nil) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["id": id, "method": method, "params": parameters]
        if let session { message["sessionId"] = session.sessionID }
        var frame = [UInt8](try JSONSerialization.data(withJSONObject: message))
        frame.append(0)
        try frame.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(commands, bytes.baseAddress! + offset, bytes.count - offset)
                guard written > 0 else { throw Failure(description: "the browser closed its pipe (\(errno))") }
                offset += written
            }
        }
        let deadline = ContinuousClock.now + timeout
        while true {
            let reply = try readFrame(until: deadline)
            guard (reply["id"] as? Int) == id else { continue }
            if let error = reply["error"] { throw Failure(description: "\(method): \(error)") }
            return reply["result"] as? [String: Any] ?? [:]
        }
    }

    private func readFrame(until deadline: ContinuousClock.Instant) throws -> [String: Any] {
        while true {
            if let end = pending.firstIndex(of: 0) {
                let frame = Data(pending[..<end])
                pending.removeSubrange(...end)
                return try JSONSerialization.jsonObject(with: frame) as? [String: Any] ?? [:]
            }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw Failure(description: "no reply from the browser in \(timeout)") }
            var poller = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left.components.seconds * 1000 + 1, 1000))
            guard poll(&poller, 1, milliseconds) >= 0 else { throw Failure(description: "poll: \(errno)") }
            guard poller.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(replies, &chunk, chunk.count)
            guard count > 0 else { throw Failure(description: "the browser exited") }
            pending += chunk[..<count]
        }
    }
}
