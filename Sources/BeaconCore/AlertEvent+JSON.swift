import FoundationEssentials

extension AlertEvent {
    /// The event as one JSON object (the JSON-lines schema of every sink):
    /// `event`, `alert`, `beacon`, `name` and `tags` (a named beacon's only), `strategy`,
    /// `priority` (`passive`, `active`, `time-sensitive`, `critical`), `time`
    /// (RFC 3339 UTC, ms), `scheduledFor`, `identifier`, `content`, `messages`, `key` (idempotency
    /// key); for every kind but `error`, `instance` (the key to acknowledge a delivery by, or to
    /// cancel a scheduled one by: its `created` event's) and, where they apply, `attempt` (a
    /// reminder's number), `escalatedTo` and `by` (who answered or cancelled).
    public var jsonLine: String {
        var json = JSONWriter()
        json.object { json in
            json.member("event", kind.rawValue)
            json.member("alert", alertID)
            json.key("beacon")
            beacon.writeJSON(to: &json)
            if let beaconName {
                json.member("name", beaconName)
                json.key("tags")
                json.array { array in for tag in beaconTags { array.value(tag) } }
            }
            json.member("strategy", strategy)
            json.member("priority", priority.rawValue)
            json.member("time", time.rfc3339String)
            json.member("scheduledFor", scheduledFor?.rfc3339String)
            json.member("identifier", content.identifier)
            json.key("content")
            json.object { json in
                json.member("title", content.title)
                json.member("message", content.message)
                json.member("actionURL", content.actionURL)
                json.member("button", content.button)
                json.member("sound", content.sound)
                if !content.data.isEmpty {
                    json.key("data")
                    json.object { json in
                        for (key, value) in content.data.sorted(by: { $0.key < $1.key }) { json.member(key, value) }
                    }
                }
            }
            if !messages.isEmpty {
                json.member("message", messages.joined(separator: " / "))
            }
            json.member("key", idempotencyKey)
            if kind != .error {
                json.member("instance", instanceKey)
            }
            if attempt > 0 { json.member("attempt", attempt) }
            if !escalatedTo.isEmpty {
                json.key("escalatedTo")
                json.array { json in for sink in escalatedTo { json.value(sink) } }
            }
            json.member("by", answeredBy)
        }
        return json.string
    }
}
